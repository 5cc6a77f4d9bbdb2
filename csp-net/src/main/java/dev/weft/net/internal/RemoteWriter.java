package dev.weft.net.internal;

import dev.weft.net.transport.Link;
import java.util.HashMap;
import java.util.Map;

/**
 * What a net input knows of one remote writing lane: where to answer it and how many of its values are
 * unread, which its credit bounds; and, for an input that moves, how many of its values arrived in order
 * (the lane numbers its values from 1), and those that came ahead of a predecessor still on its way by an
 * old home. Changed under the input's monitor.
 */
final class RemoteWriter {
    final Link link;
    final long lane;
    int unread;
    int owed; // values read from a buffered input whose credit has not been given back yet
    boolean opened;
    Envelope last; // its newest unread value: what a withdrawal takes back
    long arrived; // the number of its last value taken in order
    Map<Long, Parcel> held; // values that came early, by number; null if none ever did
    long withdrawn; // the number of a value withdrawn before it arrived, or 0
    long redirectedTo; // the move count of the home this writer was last told of (on an old home)

    RemoteWriter(Link link, long lane) {
        this.link = link;
        this.lane = lane;
    }

    /** Keeps {@code p}, which came before its predecessors. */
    void hold(Parcel p) {
        if (held == null) {
            held = new HashMap<>();
        }
        held.put(p.seq(), p);
    }

    int heldCount() {
        return held == null ? 0 : held.size();
    }
}
