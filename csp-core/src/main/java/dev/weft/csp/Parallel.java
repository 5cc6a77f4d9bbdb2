package dev.weft.csp;

import java.util.ArrayList;
import java.util.Collections;
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
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>(1));
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
        if (!failures.isEmpty()) {
            Throwable first = failures.get(0);
            for (int i = 1; i < failures.size(); i++) {
                first.addSuppressed(failures.get(i));
            }
            throw Rethrow.unchecked(first);
        }
    }

    @Pausable
    private static void runRecording(CSProcess p, List<Throwable> failures) {
        try {
            p.run();
        } catch (Throwable t) {
            failures.add(t); // the par rethrows it; the fiber itself ends normally
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
