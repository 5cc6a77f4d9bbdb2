package dev.weft.bench.net;

import dev.weft.csp.Scheduler;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The net benchmarks' ratios, measured in turns: every peer is connected in this one JVM, and each round
 * times every peer once, back to back, so a burst of load from elsewhere on the machine hits all of them alike.
 * The figures are medians over the rounds, and each ratio is the median of the ratios within a round. It
 * complements the JMH benchmarks ({@link NetPingPongBench}, {@link NetStreamBench}), whose peers run one after
 * another, on a machine that is not quiet:
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.weft.bench.net.NetRatios [ROUNDS]</pre>
 *
 * <p>{@code weftFibers} runs fibers on one carrier, each node with an I/O thread of its own; {@code weftCarriersN}
 * runs the nodes' I/O on the carriers of an N-carrier scheduler (the carriers poll the sockets themselves).
 *
 * <p>{@code weftOneWrite} is one synchronous write per operation (the value one way, its acknowledgement
 * back): a single network round trip with an application party at each end, as {@code rawNettyThreads}.
 *
 * <p>It prints {@code RESULT key value} lines: ns per round trip ({@code netPingPong.PEER}), values per second
 * ({@code netStream.SIZE.PEER}), how many times slower than raw Netty each peer is ({@code ...vsRawNetty}), and how
 * many times faster than JCSP.net2 Weft's ping-pong is ({@code netPingPong.jcsp.vsWeft}).
 */
public final class NetRatios {
    private static final int WARM_UP_ROUNDS = 10;
    private static final int ROUND_TRIPS = 500;
    private static final int VALUES = 20_000;

    private NetRatios() {
    }

    /** Measures {@code args[0]} rounds (default 30) after the warm-up rounds. */
    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        try (Scheduler s = Scheduler.singleThreaded(); Scheduler c1 = Scheduler.create(1); Scheduler c2 = Scheduler.create(2);
             WeftNetPingPong weft = new WeftNetPingPong(null); WeftNetPingPong weftFibers = new WeftNetPingPong(s);
             WeftNetPingPong weftCarriers1 = new WeftNetPingPong(c1, true);
             WeftNetPingPong weftCarriers2 = new WeftNetPingPong(c2, true);
             WeftNetSyncWrite oneWrite = new WeftNetSyncWrite(null); WeftNetSyncWrite oneWriteFibers = new WeftNetSyncWrite(s);
             RawNettyPingPong raw = new RawNettyPingPong(WeftNet.encodedBytes(WeftNetPingPong.VALUE), false);
             RawNettyPingPong rawThreads = new RawNettyPingPong(WeftNet.encodedBytes(WeftNetPingPong.VALUE), true);
             JcspNetPingPong jcsp = new JcspNetPingPong()) {
            Map<String, LongSupplier> pingPong = new LinkedHashMap<>();
            pingPong.put("weft", () -> weft.roundTrips(ROUND_TRIPS));
            pingPong.put("weftFibers", () -> weftFibers.roundTrips(ROUND_TRIPS));
            pingPong.put("weftCarriers1", () -> weftCarriers1.roundTrips(ROUND_TRIPS));
            pingPong.put("weftCarriers2", () -> weftCarriers2.roundTrips(ROUND_TRIPS));
            pingPong.put("weftOneWrite", () -> oneWrite.writes(ROUND_TRIPS));
            pingPong.put("weftOneWriteFibers", () -> oneWriteFibers.writes(ROUND_TRIPS));
            pingPong.put("rawNetty", () -> raw.roundTrips(ROUND_TRIPS));
            pingPong.put("rawNettyThreads", () -> rawThreads.roundTrips(ROUND_TRIPS));
            pingPong.put("jcsp", () -> jcsp.roundTrips(ROUND_TRIPS));
            Map<String, double[]> ns = inTurns(pingPong, rounds, ROUND_TRIPS);
            report("netPingPong", ns, false);
            result("netPingPong.jcsp.vsWeft", medianRatio(ns.get("jcsp"), ns.get("weft")));
            result("netPingPong.weftOneWrite.vsRawNettyThreads", medianRatio(ns.get("weftOneWrite"), ns.get("rawNettyThreads")));
            result("netPingPong.weftOneWriteFibers.vsRawNettyThreads",
                    medianRatio(ns.get("weftOneWriteFibers"), ns.get("rawNettyThreads")));
        }
        for (int size : new int[] {16, 1024}) {
            byte[] value = new byte[size];
            try (Scheduler f = Scheduler.singleThreaded(); Scheduler c2 = Scheduler.create(2);
                 WeftNetStream weft = new WeftNetStream(1024, null);
                 WeftNetStream weftFibers = new WeftNetStream(1024, f);
                 WeftNetStream weftCarriers2 = new WeftNetStream(1024, c2, true); RawNettyStream raw = new RawNettyStream()) {
                int frameBytes = WeftNet.encodedBytes(value);
                Map<String, LongSupplier> stream = new LinkedHashMap<>();
                stream.put("weft", () -> weft.send(VALUES, value) / size);
                stream.put("weftFibers", () -> weftFibers.send(VALUES, value) / size);
                stream.put("weftCarriers2", () -> weftCarriers2.send(VALUES, value) / size);
                stream.put("rawNetty", () -> raw.send(VALUES, frameBytes));
                Map<String, double[]> perSecond = inTurns(stream, rounds, VALUES);
                for (double[] a : perSecond.values()) {
                    for (int i = 0; i < a.length; i++) {
                        a[i] = 1e9 / a[i]; // ns per value to values per second
                    }
                }
                report("netStream." + size, perSecond, true);
            }
        }
    }

    /** Times each peer once a round, {@code ops} operations each; returns ns per operation, by peer and round. */
    static Map<String, double[]> inTurns(Map<String, LongSupplier> peers, int rounds, int ops) {
        Map<String, double[]> ns = new LinkedHashMap<>();
        peers.keySet().forEach(p -> ns.put(p, new double[rounds]));
        for (int r = -WARM_UP_ROUNDS; r < rounds; r++) {
            for (Map.Entry<String, LongSupplier> p : peers.entrySet()) {
                long start = System.nanoTime();
                long done = p.getValue().getAsLong();
                long time = System.nanoTime() - start;
                if (done != ops) {
                    throw new IllegalStateException(p.getKey() + ": " + done + " of " + ops + " operations completed");
                }
                if (r >= 0) {
                    ns.get(p.getKey())[r] = (double) time / ops;
                }
            }
        }
        return ns;
    }

    static void report(String prefix, Map<String, double[]> figures, boolean higherIsBetter) {
        double[] raw = figures.get("rawNetty");
        for (Map.Entry<String, double[]> e : figures.entrySet()) {
            result(prefix + "." + e.getKey(), median(e.getValue()));
            if (e.getValue() != raw) {
                result(prefix + "." + e.getKey() + ".vsRawNetty",
                        higherIsBetter ? medianRatio(raw, e.getValue()) : medianRatio(e.getValue(), raw));
            }
        }
    }

    /** The median over rounds of {@code a[r] / b[r]}: how many times b's figure a's is, round by round. */
    static double medianRatio(double[] a, double[] b) {
        double[] r = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            r[i] = a[i] / b[i];
        }
        return median(r);
    }

    static double median(double[] a) {
        double[] s = a.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    static void result(String key, double value) {
        System.out.println("RESULT " + key + " " + (value >= 100 ? String.format("%.0f", value) : String.format("%.2f", value)));
    }
}
