package dev.weft.net;

import dev.weft.net.transport.Link;

/**
 * What a net input knows of one remote writing lane: where to answer it and how many of its values are
 * unread, which its credit bounds. Changed under the input's monitor.
 */
final class RemoteWriter {
    final Link link;
    final long lane;
    int unread;
    int owed; // values read from a buffered input whose credit has not been given back yet
    boolean opened;
    Envelope last; // its newest unread value: what a withdrawal takes back

    RemoteWriter(Link link, long lane) {
        this.link = link;
        this.lane = lane;
    }
}
