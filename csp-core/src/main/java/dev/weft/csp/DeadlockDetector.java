package dev.weft.csp;

import dev.weft.csp.runtime.Continuation;
import dev.weft.csp.runtime.DeadlockCheck;
import dev.weft.csp.runtime.RunGroup;
import dev.weft.csp.runtime.RuntimeEvents;
import dev.weft.csp.runtime.TimerEntry;
import dev.weft.csp.runtime.WorkerPool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Decides, when a pool has come to rest, whether its fibers are deadlocked, and fails each {@link Weft#run}
 * whose fibers are. Certain or silent: it reports only if every live fiber of the pool is parked on
 * something only fibers of this pool have ever used (a channel end, a barrier, an alternative without a
 * timeout, a join of a fiber of this pool), and the pool stayed at rest while the fibers were read, so the
 * picture is one instant. Any other wait (a timer, a blocking call, a bare park, a primitive a plain thread
 * or another scheduler's fiber has used) may end from outside, and then nothing is reported, for any run.
 * Fibers spawned from plain threads have no run to fail and are never reported.
 */
final class DeadlockDetector implements DeadlockCheck {
    @Override
    public void check(WorkerPool pool, BooleanSupplier stillAtRest) {
        List<Continuation> live = pool.liveSnapshot();
        if (live.isEmpty()) {
            return;
        }
        boolean reportable = false;
        for (Continuation c : live) {
            Fiber f = (Fiber) c;
            if (!f.isParked() || !waitsInside(f.blocker(), pool)) {
                return;
            }
            RunGroup g = f.group();
            reportable |= g != null && !g.hasFailed();
        }
        // No worker ran a fiber while we read, so every fiber read as parked was still parked at the end
        // (only an outside party, which the design leaves out, could have woken one meanwhile).
        if (!stillAtRest.getAsBoolean()) {
            return;
        }
        if (reportable) {
            report(pool, live);
        }
    }

    @Override
    public boolean onlyTimersCanWake(WorkerPool pool) {
        for (Continuation c : pool.liveSnapshot()) {
            Fiber f = (Fiber) c;
            Object blocker = f.blocker();
            boolean timed = blocker instanceof TimerEntry
                    || (blocker instanceof Selection && ((Selection) blocker).guardsOnlyUsedBy(pool));
            if (!f.isParked() || !(timed || waitsInside(blocker, pool))) {
                return false;
            }
        }
        return true;
    }

    private static void report(WorkerPool pool, List<Continuation> live) {
        Map<RunGroup, StringBuilder> reports = new LinkedHashMap<>();
        Map<RunGroup, Integer> counts = new LinkedHashMap<>();
        for (Continuation c : live) {
            Fiber f = (Fiber) c;
            RunGroup g = f.group();
            if (g != null && !g.hasFailed()) {
                reports.computeIfAbsent(g, k -> new StringBuilder()).append(entry(f));
                counts.merge(g, 1, Integer::sum);
            }
        }
        for (Map.Entry<RunGroup, StringBuilder> e : reports.entrySet()) {
            int n = counts.get(e.getKey());
            String report = "deadlock: no fiber of this Weft.run on scheduler " + pool.name() + " can run again; " + n
                    + (n == 1 ? " blocked fiber:\n" : " blocked fibers:\n") + e.getValue();
            RuntimeEvents.deadlock(report);
            e.getKey().fail(new DeadlockException(report));
        }
    }

    /** Whether only fibers of {@code pool} could end a wait on {@code blocker}. */
    private static boolean waitsInside(Object blocker, WorkerPool pool) {
        if (blocker instanceof Waitable) {
            return ((Waitable) blocker).onlyUsedBy(pool);
        }
        if (blocker instanceof Barrier) {
            return ((Barrier) blocker).onlyUsedBy(pool);
        }
        if (blocker instanceof Fiber) { // a join: the joined fiber ends only if it runs
            Fiber target = (Fiber) blocker;
            return !target.isThreadBound() && target.pool() == pool;
        }
        return false;
    }

    private static String entry(Fiber f) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        FiberDump.write(f, out);
        out.flush();
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
