package dev.weft.csp;

import java.util.ArrayList;
import java.util.List;

/** Parallel composition: run processes side by side and wait for all of them. */
public final class Parallel {
    private Parallel() {
    }

    /**
     * Runs every process concurrently and returns when all have ended. If any threw, rethrows the first to
     * fail (in time) with the others added as suppressed. With no processes, returns at once.
     */
    @Pausable
    public static void run(CSProcess... processes) {
        if (processes.length == 0) {
            return;
        }
        Failures failures = new Failures();
        Fiber[] fibers = new Fiber[processes.length];
        for (int i = 0; i < processes.length; i++) {
            CSProcess p = processes[i];
            if (p == null) {
                throw new NullPointerException("process " + i + " is null");
            }
            fibers[i] = Weft.spawn(() -> runRecording(p, failures));
        }
        for (Fiber f : fibers) {
            f.join();
        }
        Throwable first = failures.first();
        if (first != null) {
            throw Rethrow.unchecked(first);
        }
    }

    @Pausable
    private static void runRecording(CSProcess p, Failures failures) {
        try {
            p.run();
        } catch (Throwable t) {
            failures.add(t); // the par rethrows it; the fiber itself ends normally
        }
    }

    /** What the processes of one par threw, in order (a list only once one fails: a par stays small). */
    private static final class Failures {
        private List<Throwable> list;

        synchronized void add(Throwable t) {
            if (list == null) {
                list = new ArrayList<>(2);
            }
            list.add(t);
        }

        /** The first failure with the others added as suppressed, or null. */
        synchronized Throwable first() {
            if (list == null) {
                return null;
            }
            Throwable first = list.get(0);
            for (int i = 1; i < list.size(); i++) {
                first.addSuppressed(list.get(i));
            }
            return first;
        }
    }

    /** Par-for: runs {@code body} for every index in [from, to) concurrently and waits for all. */
    @Pausable
    public static void forRange(int from, int to, IntProcess body) {
        if (from > to) {
            throw new IllegalArgumentException("forRange: from (" + from + ") > to (" + to + ")");
        }
        CSProcess[] ps = new CSProcess[to - from];
        for (int i = from; i < to; i++) {
            int index = i;
            ps[i - from] = () -> body.run(index);
        }
        run(ps);
    }

}
