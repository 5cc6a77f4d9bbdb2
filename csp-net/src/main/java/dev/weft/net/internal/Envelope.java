package dev.weft.net.internal;

/**
 * A value that arrived for a net input, with the remote writer it came from (to answer it once read).
 * {@code taken} and {@code withdrawn} change under the input's monitor: the reader takes an envelope or a
 * cancelled writer withdraws it, never both. {@code answered}: its writer was already answered (a cancelled
 * write of a moving input, which cannot be taken back: it has moved), so its read answers nothing.
 */
final class Envelope {
    final Object value;
    final RemoteWriter writer;
    boolean taken;
    boolean withdrawn;
    boolean answered;

    Envelope(Object value, RemoteWriter writer) {
        this.value = value;
        this.writer = writer;
    }
}
