package dev.weft.csp.runtime;

import dev.weft.csp.Scheduler;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/** The carrier threads of a scheduler, found by name, and their CPU time. */
final class Carriers {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private Carriers() {
    }

    static List<Thread> of(Scheduler s) {
        List<Thread> out = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t instanceof Carrier && t.getName().startsWith(s.name() + "-")) {
                out.add(t);
            }
        }
        return out;
    }

    /** Total CPU nanoseconds used by {@code threads} so far. */
    static long cpuNanos(List<Thread> threads) {
        long sum = 0;
        for (Thread t : threads) {
            long n = THREADS.getThreadCpuTime(t.getId());
            if (n > 0) {
                sum += n;
            }
        }
        return sum;
    }
}
