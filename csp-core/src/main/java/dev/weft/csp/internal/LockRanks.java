package dev.weft.csp.internal;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * Ranks for the channels that {@link ChannelImpl#lockOrder} cannot order by identity hash (two channels with
 * equal hashes): each gets, when first found so tied, the next rank, kept while it lives. Rare, so one lock
 * and a weak map suffice; a channel that never ties costs nothing here.
 */
final class LockRanks {
    private static final Map<ChannelImpl<?>, Long> RANKS = new WeakHashMap<>(); // channels compare by identity
    private static long next;

    private LockRanks() {
    }

    /** The rank of {@code c}, given now if it has none. */
    static synchronized long of(ChannelImpl<?> c) {
        return RANKS.computeIfAbsent(c, k -> next++);
    }
}
