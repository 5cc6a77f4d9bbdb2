package dev.weft.csp;

import dev.weft.csp.internal.FiberLifecycle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Run in a child JVM by {@link StackOverflowTest}: a plain thread dives deeper and deeper, trying one channel
 * operation at each depth, so that the operations near the end of its stack fail with
 * {@link StackOverflowError} at every point of their code; a partner (a thread, a fiber or an alternative)
 * serves the other end. After each dive the channel must still work, and every value must have arrived
 * exactly once if its write returned, and never if it threw. Prints {@code ok} and exits 0, or prints what
 * went wrong and exits 1 (2 if something hung).
 *
 * <p>Arguments: the number of trials (a new channel and partner each), the dives per trial, then the scenarios
 * to run: {@code write}, {@code read}, {@code select} (the deep thread selects, then reads), {@code buffered}
 * (writes to a buffered channel), {@code fiber} (writes to a fiber), {@code altPartner} (writes to a thread
 * that selects).
 */
public final class StackOverflowDrill {
    private static final int STACK = 256 * 1024;
    private static final int MAX_VALUES = 1 << 16;
    private static final Integer[] VALUES = new Integer[MAX_VALUES];
    private static final Integer STOP = -1;

    static {
        for (int i = 0; i < MAX_VALUES; i++) {
            VALUES[i] = i; // preallocated: recording a value must make no call that could overflow itself
        }
    }

    /** Levels above the bottom of a dive that try an operation: more than an operation's reservation spans. */
    private static final int WINDOW = 250;

    private final String scenario;
    private ChannelOutput<Integer> out;
    private AltingChannelInput<Integer> in;
    private Alternative alt;
    // The deep side's records, written without calls: plain array and field stores.
    private final boolean[] sent = new boolean[MAX_VALUES];
    private final Object[] got = new Object[MAX_VALUES];
    private int next;
    private int gotCount;
    private int overflowsInOps;
    /** The level from which a dive tries operations; the deepest level that a bare dive reached. */
    private int opsFrom;
    private int bottom;
    // The partner's records.
    private final int[] received = new int[MAX_VALUES];
    private volatile int written;
    private volatile boolean stopRequested;

    private StackOverflowDrill(String scenario) {
        this.scenario = scenario;
    }

    public static void main(String[] args) throws Exception {
        int trials = Integer.parseInt(args[0]);
        int dives = Integer.parseInt(args[1]);
        try (Scheduler scheduler = Scheduler.create(1)) {
            for (int s = 2; s < args.length; s++) {
                String scenario = args[s];
                long overflows = 0;
                for (int t = 0; t < trials; t++) {
                    StackOverflowDrill d = new StackOverflowDrill(scenario);
                    String problem = d.trial(scheduler, dives);
                    if (problem != null) {
                        System.out.println("trial " + t + " of " + scenario + ": " + problem);
                        System.out.flush();
                        Runtime.getRuntime().halt(problem.startsWith("hung") ? 2 : 1);
                    }
                    overflows += d.overflowsInOps;
                }
                System.out.println("ok " + scenario + ": " + trials + " trials, " + overflows
                        + " operations overflowed");
            }
        }
    }

    /** One channel, one partner, {@code dives} dives; null if all went well. */
    private String trial(Scheduler scheduler, int dives) throws InterruptedException {
        boolean deepWrites = !scenario.equals("read") && !scenario.equals("select");
        One2OneChannel<Integer> ch = scenario.equals("buffered") ? Channel.one2one(2) : Channel.one2one();
        out = ch.out();
        in = ch.in();
        alt = new Alternative(in);
        List<Throwable> failures = new ArrayList<>();
        Fiber fiber = null;
        Thread partnerThread = null;
        if (scenario.equals("fiber")) {
            fiber = FiberLifecycle.start(() -> readUntilStop(ch.in(), null), scheduler.pool, null);
        } else {
            Alternative partnerAlt = scenario.equals("altPartner") ? new Alternative(ch.in()) : null;
            partnerThread = start("partner", () -> {
                try {
                    if (deepWrites) {
                        readUntilStop(ch.in(), partnerAlt);
                    } else {
                        writeUntilStopped(ch.out());
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
        }
        Thread deep = start("deep", () -> {
            try {
                for (int i = 0; i < dives; i++) {
                    opsFrom = Integer.MAX_VALUE;
                    bottom = 0;
                    pad(i % 8, 0); // a bare dive finds the bottom (it moves as code gets compiled)...
                    opsFrom = bottom - WINDOW;
                    pad(i % 8, 0); // ...and this one tries operations near it
                }
                if (deepWrites) {
                    out.write(STOP); // at a shallow depth: must get through
                } else {
                    stopRequested = true;
                    for (Integer v; !(v = in.read()).equals(STOP); ) {
                        got[gotCount++] = v;
                    }
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        deep.join(TimeUnit.SECONDS.toMillis(60)); // long: a loaded machine gives the trial little time
        if (partnerThread != null) {
            partnerThread.join(TimeUnit.SECONDS.toMillis(60));
        }
        if (deep.isAlive() || (partnerThread != null && partnerThread.isAlive())) {
            return "hung after " + overflowsInOps + " overflows: deep " + deep.getState()
                    + (partnerThread == null ? "" : ", partner " + partnerThread.getState()) + "\n"
                    + stack(deep) + (partnerThread == null ? "" : stack(partnerThread))
                    + (failures.isEmpty() ? "" : "after failures: " + failures); // why a party stopped
        }
        if (fiber != null) {
            fiber.join();
        }
        if (!failures.isEmpty()) {
            StringBuilder b = new StringBuilder("failed: ");
            for (Throwable f : failures) {
                b.append(f).append(' ');
            }
            return b.toString();
        }
        return deepWrites ? checkWrites() : checkReads();
    }

    private String checkWrites() {
        for (int v = 0; v < next; v++) {
            int expected = sent[v] ? 1 : 0;
            if (received[v] != expected) {
                return "value " + v + " was received " + received[v] + " times, its write "
                        + (sent[v] ? "returned" : "threw");
            }
        }
        return null;
    }

    private String checkReads() {
        int[] count = new int[MAX_VALUES];
        for (int i = 0; i < gotCount; i++) {
            count[(Integer) got[i]]++;
        }
        for (int v = 0; v < written; v++) {
            if (count[v] != 1) {
                return "value " + v + " was read " + count[v] + " times";
            }
        }
        return null;
    }

    /** The partner of deep writes: reads (after a select, if {@code a} is not null) until the stop value. */
    @Pausable
    private void readUntilStop(ChannelInput<Integer> input, Alternative a) {
        for (;;) {
            if (a != null) {
                a.select();
            }
            Integer v = input.read();
            if (v.equals(STOP)) {
                return;
            }
            received[v]++;
        }
    }

    private void writeUntilStopped(ChannelOutput<Integer> output) {
        int i = 0;
        while (!stopRequested) {
            output.write(VALUES[i]);
            i++;
            written = i;
        }
        output.write(STOP);
    }

    // ------------------------------------------------------------------------- the dive

    /** Pads the stack by {@code words} (0-7) longs, so that successive dives overflow at other points. */
    private void pad(int words, int depth) {
        switch (words) {
            case 0: dive(depth); break;
            case 1: pad1(depth); break;
            case 2: pad2(depth); break;
            case 3: pad3(depth); break;
            case 4: pad4(depth); break;
            case 5: pad5(depth); break;
            case 6: pad6(depth); break;
            default: pad7(depth); break;
        }
    }

    private void pad1(int depth) {
        long a = depth;
        dive((int) a);
    }

    private void pad2(int depth) {
        long a = depth, b = a;
        dive((int) b);
    }

    private void pad3(int depth) {
        long a = depth, b = a, c = b;
        dive((int) c);
    }

    private void pad4(int depth) {
        long a = depth, b = a, c = b, d = c;
        dive((int) d);
    }

    private void pad5(int depth) {
        long a = depth, b = a, c = b, d = c, e = d;
        dive((int) e);
    }

    private void pad6(int depth) {
        long a = depth, b = a, c = b, d = c, e = d, f = e;
        dive((int) f);
    }

    private void pad7(int depth) {
        long a = depth, b = a, c = b, d = c, e = d, f = e, g = f;
        dive((int) g);
    }

    /** One operation at this depth (if deep enough), then one level deeper, until the stack runs out. */
    private void dive(int depth) {
        if (depth >= opsFrom) {
            try {
                operation();
            } catch (StackOverflowError e) {
                overflowsInOps++;
            }
        }
        bottom = depth;
        try {
            dive(depth + 1);
        } catch (StackOverflowError e) {
            // the bottom: unwind
        }
    }

    private void operation() {
        switch (scenario) {
            case "read":
                got[gotCount] = in.read();
                gotCount++;
                break;
            case "select":
                alt.select();
                got[gotCount] = in.read();
                gotCount++;
                break;
            default: // write, buffered, fiber, altPartner
                int v = next++;
                out.write(VALUES[v]);
                sent[v] = true;
        }
    }

    private static Thread start(String name, Runnable r) {
        Thread t = new Thread(null, r, name, STACK);
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The top of {@code t}'s stack (the rest is the dive). */
    private static String stack(Thread t) {
        StringBuilder b = new StringBuilder(t.getName()).append(":\n");
        StackTraceElement[] trace = t.getStackTrace();
        for (int i = 0; i < Math.min(12, trace.length); i++) {
            b.append("    at ").append(trace[i]).append('\n');
        }
        return b.toString();
    }
}
