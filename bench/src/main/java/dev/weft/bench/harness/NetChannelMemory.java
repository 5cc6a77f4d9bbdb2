package dev.weft.bench.harness;

import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import java.io.IOException;
import java.lang.ref.Reference;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Bytes of heap per open net channel end, and proof that many net channels share one link. Two nodes in this
 * JVM on loopback: {@code count} synchronous inputs ({@code net2one()}) on one, an output ({@code one2net}) to
 * each from the other, then one value written through each channel and read back. The heap in use (after full
 * collections) is taken before the ends are made, after the inputs, after the outputs and after every channel
 * has carried its value; the arrays that hold the ends are made before the first figure, and the link between
 * the nodes is made (by a channel used once) before it too. Run in a fresh JVM with a fixed heap:
 *
 * <pre>java -Xms3g -Xmx3g -XX:+UseSerialGC -cp bench/target/benchmarks.jar dev.weft.bench.harness.NetChannelMemory [COUNT]</pre>
 *
 * <p>COUNT defaults to 100,000. Results: bytes per input and per output as made, per channel (both ends, both
 * nodes) once used, the values that arrived as sent, and this JVM's open sockets before and after: no new
 * socket means that every channel went over the one link already open.
 */
public final class NetChannelMemory {
    private NetChannelMemory() {
    }

    /** Measures {@code args[0]} channels (default 100,000). */
    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        long[] m = measure(count);
        Measure.result("netEnd.input", String.format("%.0f", (double) (m[1] - m[0]) / count));
        Measure.result("netEnd.output", String.format("%.0f", (double) (m[2] - m[1]) / count));
        Measure.result("netChannel.used", String.format("%.0f", (double) (m[3] - m[0]) / count));
        Measure.result("netChannel.count", count);
        Measure.result("netChannel.delivered", m[4]);
        Measure.result("netChannel.sockets", m[5] + " before, " + m[6] + " after");
        if (m[4] != count || m[6] > m[5]) {
            throw new IllegalStateException(m[4] + " of " + count + " values arrived, and the JVM had " + m[5]
                    + " sockets before, " + m[6] + " after: the channels did not all work over the one link");
        }
    }

    /**
     * Returns {heap before, after the inputs, after the outputs, after one value each, values that arrived as
     * sent, open sockets before, open sockets after}.
     */
    @SuppressWarnings("unchecked")
    static long[] measure(int count) throws Exception {
        long[] m = new long[7];
        NetChannelInput<Integer>[] ins = new NetChannelInput[count];
        NetChannelOutput<Integer>[] outs = new NetChannelOutput[count];
        try (Node readers = Node.start(); Node writers = Node.start()) {
            NetChannelInput<Integer> first = readers.net2one(1);
            writers.<Integer>one2net(first.location()).write(0); // opens the link: buffered, so this thread returns
            first.read();
            m[5] = sockets();
            m[0] = Measure.heap();
            for (int i = 0; i < count; i++) {
                ins[i] = readers.net2one();
            }
            m[1] = Measure.heap();
            for (int i = 0; i < count; i++) {
                outs[i] = writers.one2net(ins[i].location());
            }
            m[2] = Measure.heap();
            Throwable[] failed = new Throwable[1];
            Thread writer = new Thread(() -> {
                try {
                    for (int i = 0; i < count; i++) {
                        outs[i].write(i);
                    }
                } catch (Throwable t) {
                    failed[0] = t;
                }
            }, "net-channel-writer");
            writer.start();
            for (int i = 0; i < count; i++) {
                if (ins[i].read() == i) {
                    m[4]++;
                }
            }
            writer.join();
            if (failed[0] != null) {
                throw new IllegalStateException("a write failed", failed[0]);
            }
            m[3] = Measure.heap();
            m[6] = sockets();
            Reference.reachabilityFence(ins); // every end stays open until the last figure
            Reference.reachabilityFence(outs);
        }
        return m;
    }

    /** Open sockets of this JVM (Linux), or -1 where /proc is not there. */
    static long sockets() {
        long n = 0;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith("socket:")) {
                        n++;
                    }
                } catch (IOException closedMeanwhile) {
                    // the directory's own descriptor, or one closed while listed
                }
            }
        } catch (IOException e) {
            return -1;
        }
        return n;
    }
}
