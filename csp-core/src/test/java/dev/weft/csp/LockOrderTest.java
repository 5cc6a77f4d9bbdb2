package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.csp.internal.ChannelImpl;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Alternatives over several channels take their locks in one order, whatever the order of their guards, even
 * for two channels whose identity hashes are equal (the channel has no number of its own).
 */
@Timeout(120)
class LockOrderTest {
    /** Two channels with equal identity hashes: among 400,000 (31-bit hashes) a pair is all but certain. */
    private static ChannelImpl<?>[] tiedPair() {
        Map<Integer, ChannelImpl<?>> byHash = new HashMap<>();
        for (int i = 0; i < 400_000; i++) {
            ChannelImpl<?> c = (ChannelImpl<?>) Channel.any2any();
            ChannelImpl<?> earlier = byHash.putIfAbsent(System.identityHashCode(c), c);
            if (earlier != null) {
                return new ChannelImpl<?>[] {earlier, c};
            }
        }
        return null;
    }

    private static ChannelImpl<?>[] locksOf(Alternative alt) throws ReflectiveOperationException {
        Field f = Alternative.class.getDeclaredField("locks");
        f.setAccessible(true);
        return (ChannelImpl<?>[]) f.get(alt);
    }

    @Test
    void tiedChannelsGetOneOrderForEveryAlternative() throws Exception {
        ChannelImpl<?>[] pair = tiedPair();
        assumeTrue(pair != null, "no two of 400,000 channels share an identity hash");
        ChannelImpl<?> a = pair[0];
        ChannelImpl<?> b = pair[1];
        int ab = ChannelImpl.lockOrder(a, b);
        assertNotEquals(0, ab);
        assertEquals(-ab, ChannelImpl.lockOrder(b, a));
        assertEquals(ab, ChannelImpl.lockOrder(a, b), "the rank given at the first tie is kept");
        assertEquals(0, ChannelImpl.lockOrder(a, a));

        ChannelImpl<?> other = (ChannelImpl<?>) Channel.any2any();
        ChannelImpl<?>[] expected = locksOf(new Alternative(a.in(), b.out(), other.in()));
        assertEquals(3, expected.length);
        assertArrayEquals(expected, locksOf(new Alternative(other.out(), b.in(), a.in())));
        assertArrayEquals(expected, locksOf(new Alternative(b.in(), other.in(), a.out())));
    }

    /**
     * Two selects over the same two tied channels, each reading one and writing the other, their guards in
     * opposite orders, on two workers: every round each takes both locks; an order that differed between them
     * could deadlock, and the test would time out.
     */
    @Test
    void selectsOverTiedChannelsInOppositeOrdersNeverDeadlock() {
        ChannelImpl<?>[] pair = tiedPair();
        assumeTrue(pair != null, "no two of 400,000 channels share an identity hash");
        @SuppressWarnings("unchecked")
        ChannelImpl<Integer> a = (ChannelImpl<Integer>) pair[0];
        @SuppressWarnings("unchecked")
        ChannelImpl<Integer> b = (ChannelImpl<Integer>) pair[1];
        int rounds = 20_000;
        Schedulers.onOneAndTwoWorkers(3, s -> Weft.run(s, () -> {
            Fiber one = Weft.spawn(() -> {
                Alternative alt = new Alternative(a.in(), b.out());
                for (int i = 0; i < rounds; i++) {
                    if (alt.select() == 0) {
                        a.in().read();
                    } else {
                        b.out().write(i);
                    }
                }
            });
            Fiber two = Weft.spawn(() -> {
                Alternative alt = new Alternative(b.in(), a.out());
                for (int i = 0; i < rounds; i++) {
                    if (alt.select() == 0) {
                        b.in().read();
                    } else {
                        a.out().write(i);
                    }
                }
            });
            one.join();
            two.join();
        }));
    }
}
