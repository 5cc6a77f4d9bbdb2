package dev.weft.bench.net;

import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;

/**
 * One synchronous net write at a time: two {@link Node}s in one JVM on loopback, a writer on one, a reader on
 * the other. Each write returns once the remote read has taken the value: one network round trip (the value
 * one way, its acknowledgement back), with an application party at each end, the shape of raw Netty's
 * ping-pong with the echo from a thread ({@link RawNettyPingPong} with {@code echoFromThread}).
 *
 * <p>From plain threads, the reader is a thread that reads until its node closes. On fibers, each
 * {@link #writes} is a {@link Weft#run} of a writer fiber and a reader fiber on the given scheduler.
 */
public final class WeftNetSyncWrite implements AutoCloseable {
    private final Scheduler fibers;
    private final Node writerNode = Node.start();
    private final Node readerNode = Node.start();
    private final NetChannelInput<Integer> in = readerNode.net2one();
    private final NetChannelOutput<Integer> out = writerNode.one2net(in.location());
    private final Thread reader;

    /** Starts the two nodes and the channel; {@code fibers} null for plain threads. */
    public WeftNetSyncWrite(Scheduler fibers) {
        this.fibers = fibers;
        if (fibers == null) {
            reader = new Thread(this::readUntilClosed, "weft-net-reader");
            reader.setDaemon(true);
            reader.start();
        } else {
            reader = null;
        }
    }

    private void readUntilClosed() {
        try {
            for (;;) {
                in.read();
            }
        } catch (PoisonException closed) {
            // the reader's node closed
        }
    }

    /** Makes {@code n} synchronous writes; returns how many completed. */
    public int writes(int n) {
        if (fibers == null) {
            return write(n);
        }
        int[] done = new int[1];
        Weft.run(fibers, () -> {
            Weft.spawn(() -> {
                for (int i = 0; i < n; i++) {
                    in.read();
                }
            });
            done[0] = write(n);
        });
        return done[0];
    }

    @Pausable
    private int write(int n) {
        for (int i = 0; i < n; i++) {
            out.write(WeftNetPingPong.VALUE);
        }
        return n;
    }

    @Override
    public void close() {
        writerNode.close();
        readerNode.close();
        if (reader != null) {
            try {
                reader.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
