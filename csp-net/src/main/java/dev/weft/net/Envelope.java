package dev.weft.net;

/**
 * A value that arrived for a net input, with the remote writer it came from (to answer it once read).
 * {@code taken} and {@code withdrawn} change under the input's monitor: the reader takes an envelope or a
 * cancelled writer withdraws it, never both.
 */
final class Envelope {
    final Object value;
    final RemoteWriter writer;
    boolean taken;
    boolean withdrawn;

    Envelope(Object value, RemoteWriter writer) {
        this.value = value;
        this.writer = writer;
    }
}
