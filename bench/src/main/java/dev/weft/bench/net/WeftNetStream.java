package dev.weft.bench.net;

import dev.weft.csp.ChannelInput;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;

/**
 * Weft's streaming over a buffered net channel: two {@link Node}s in one JVM on loopback; a writer on one
 * streams values to a {@code net2one(capacity)} input on the other, whose reader takes them all. Each write
 * returns once its value is in the remote buffer (or at once while the writer has credit), so the writer runs
 * ahead of the reader by up to {@code capacity} values.
 *
 * <p>From plain threads (no scheduler), the writer is the calling thread and the reader a thread of its own;
 * on fibers, each {@link #send} is a {@link Weft#run} of a writer fiber and a reader fiber on the given scheduler.
 */
public final class WeftNetStream implements AutoCloseable {
    private final Scheduler fibers;
    private final Node writerNode;
    private final Node readerNode;
    private final NetChannelInput<byte[]> in;
    private final NetChannelOutput<byte[]> out;

    /** Starts the two nodes and a channel of {@code capacity} between them; {@code fibers} null for plain threads. */
    public WeftNetStream(int capacity, Scheduler fibers) {
        this(capacity, fibers, false);
    }

    /** As {@link #WeftNetStream(int, Scheduler)}; with {@code onCarriers}, the nodes' I/O runs on the fibers' carriers. */
    public WeftNetStream(int capacity, Scheduler fibers, boolean onCarriers) {
        this.fibers = fibers;
        writerNode = onCarriers ? Node.builder().scheduler(fibers).start() : Node.start();
        readerNode = onCarriers ? Node.builder().scheduler(fibers).start() : Node.start();
        in = readerNode.net2one(capacity);
        out = writerNode.one2net(in.location());
        open();
    }

    /** Opens the link and the channel before any timing (a constructor may not block: the weaver says so). */
    private void open() {
        out.write(new byte[0]); // no reader yet: it returns once the value is buffered and the writer knows it
        in.read();
    }

    /**
     * Streams {@code n} copies of {@code value} and returns once the reader has read them all; returns the
     * bytes the reader read (n times the value's length when every value arrived whole).
     */
    public long send(int n, byte[] value) {
        long[] read = new long[1];
        if (fibers == null) {
            Thread reader = new Thread(() -> read[0] = read(in, n), "weft-net-reader");
            reader.start();
            write(n, value);
            try {
                reader.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the reader read", e);
            }
        } else {
            Weft.run(fibers, () -> {
                Weft.spawn(() -> read[0] = read(in, n));
                write(n, value);
            });
        }
        return read[0];
    }

    @Pausable
    private void write(int n, byte[] value) {
        for (int i = 0; i < n; i++) {
            out.write(value);
        }
    }

    @Pausable
    private static long read(ChannelInput<byte[]> in, int n) {
        long bytes = 0;
        for (int i = 0; i < n; i++) {
            bytes += in.read().length;
        }
        return bytes;
    }

    @Override
    public void close() {
        writerNode.close();
        readerNode.close();
    }
}
