package dev.weft.net.netns;

import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.net.LinkLostException;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import dev.weft.net.launch.Cluster;
import dev.weft.net.launch.NetProgram;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * CommsTime on three nodes: prefix and consumer on node 0, delta on node 1, successor on node 2, every channel of
 * the ring synchronous and across the network. The consumer checks that it reads 0, 1, 2, ... with none lost,
 * repeated or out of order; it ends the ring with poison once {@code args[0]} ms have passed (and node 1's bulk
 * value of {@code args[1]} bytes, if any, has come: see {@link Running}).
 */
public final class NetnsCommsTime implements NetProgram<String> {
    @Override
    @Pausable
    public String run(Cluster c) {
        int minMillis = c.intArg(0, 5000);
        int bulk = c.intArg(1, 0);
        Node node = c.node();
        switch (c.index()) {
            case 0 -> {
                return node0(node, minMillis, bulk);
            }
            case 1 -> {
                NetChannelInput<Integer> a = node.net2one("ct.a");
                Parallel.run(() -> delta(node, a), () -> Bulk.send(c, bulk));
            }
            default -> {
                NetChannelInput<Integer> b = node.net2one("ct.b");
                NetChannelOutput<Integer> out = node.one2net("ct.c");
                try {
                    for (;;) {
                        out.write(b.read() + 1);
                    }
                } catch (PoisonException e) {
                    endRing(e, b, out);
                }
            }
        }
        return null;
    }

    @Pausable
    private static void delta(Node node, NetChannelInput<Integer> a) {
        NetChannelOutput<Integer> b = node.one2net("ct.b");
        NetChannelOutput<Integer> d = node.one2net("ct.d");
        try {
            for (;;) {
                Integer v = a.read();
                d.write(v);
                b.write(v);
            }
        } catch (PoisonException e) {
            endRing(e, a, b, d);
        }
    }

    @Pausable
    private static String node0(Node node, int minMillis, int bulkBytes) {
        NetChannelInput<Integer> c = node.net2one("ct.c");
        NetChannelInput<Integer> d = node.net2one("ct.d");
        NetChannelInput<byte[]> bulk = node.net2one(Bulk.NAME);
        NetChannelOutput<Integer> a = node.one2net("ct.a");
        long start = System.nanoTime();
        AtomicBoolean bulkDone = new AtomicBoolean(bulkBytes == 0);
        String[] bulkNote = {""};
        int[] values = {0};
        Parallel.run(
                () -> {
                    try {
                        a.write(0);
                        for (;;) {
                            a.write(c.read());
                        }
                    } catch (PoisonException e) {
                        endRing(e, c, a);
                    }
                },
                () -> {
                    for (int expected = 0; ; expected++) {
                        int v = d.read();
                        if (v != expected) {
                            throw new IllegalStateException("the consumer read " + v + " where " + expected
                                    + " was due: a value lost, repeated or out of order");
                        }
                        values[0] = expected + 1;
                        Running.counted(values[0]);
                        if (Running.mayEnd(values[0], bulkDone.get(), start, minMillis)) {
                            d.poison();
                            return;
                        }
                    }
                },
                () -> {
                    if (bulkBytes > 0) {
                        bulkNote[0] = Bulk.receive(bulk, bulkBytes, start);
                        bulkDone.set(true);
                    }
                });
        return values[0] + " values read in order, each once" + bulkNote[0];
    }

    /** Ends this process's part of the ring: poisons its ends; a lost link is a failure, and is thrown on. */
    private static void endRing(PoisonException why, Object... ends) {
        if (why instanceof LinkLostException) {
            throw why;
        }
        for (Object end : ends) {
            if (end instanceof NetChannelInput<?> in) {
                in.poison();
            } else {
                ((NetChannelOutput<?>) end).poison();
            }
        }
    }
}
