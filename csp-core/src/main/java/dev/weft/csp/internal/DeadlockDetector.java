package dev.weft.csp.internal;

import dev.weft.csp.Barrier;
import dev.weft.csp.DeadlockException;
import dev.weft.csp.Fiber;
import dev.weft.csp.Weft;
import dev.weft.csp.runtime.DeadlockCheck;
import dev.weft.csp.runtime.Durations;
import dev.weft.csp.runtime.RunGroup;
import dev.weft.csp.runtime.RuntimeEvents;
import dev.weft.csp.runtime.Schedulable;
import dev.weft.csp.runtime.TimerEntry;
import dev.weft.csp.runtime.WorkerPool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Decides, when a pool has come to rest, whether the fibers of a run are deadlocked, and fails each
 * {@link Weft#run} whose fibers are. Certain or silent: a report needs the garbage collector's word that
 * nothing outside a run's parked fibers can reach them (a {@code DeadlockProbe} per run), so nothing can
 * ever wake one. Cheap rules come first and decide which runs are worth a collection: the pool stayed at
 * rest while the fibers were read (the picture is one instant); every fiber of the run is parked on a
 * channel end, a barrier, an alternative without a timeout or a join of a fiber of this pool; nothing but
 * fibers of this pool has used what they wait on (a primitive a plain thread, a network event loop or
 * another scheduler's fiber has used is one such a party most likely still holds); and the run has not
 * failed already. Fibers spawned from plain threads have no run to fail and are never probed.
 */
public final class DeadlockDetector implements DeadlockCheck {
    @Override
    public void check(WorkerPool pool, BooleanSupplier stillAtRest) {
        Set<RunGroup> runs = runsThatMayBeDeadlocked(pool);
        if (!runs.isEmpty() && stillAtRest.getAsBoolean()) {
            // No worker ran a fiber while we read, so every fiber read as parked was still parked at the end
            // (only an outside party could have woken one meanwhile, and then the probe finds it reachable).
            pool.sendProbes(stillAtRest, c -> ((Fiber) c).group(), runs);
        }
    }

    /**
     * The cheap rules: the runs whose every fiber waits inside the pool. A pool may hold a million fibers, most
     * of one run, and a check holds its carrier: so a run's verdict is looked up once per stretch of its fibers
     * in the snapshot (not once per fiber), and once a fiber of a run waits on something outside, that run's
     * other fibers are not looked at (no primitive's lock taken for them).
     */
    private static Set<RunGroup> runsThatMayBeDeadlocked(WorkerPool pool) {
        Map<RunGroup, Boolean> inside = new HashMap<>();
        RunGroup run = null;
        boolean allInside = false; // so far, of run's fibers
        for (Schedulable c : pool.liveSnapshot()) {
            Fiber f = (Fiber) c;
            RunGroup g = f.group();
            if (g == null) {
                continue;
            }
            if (g != run) {
                if (run != null) {
                    inside.put(run, allInside);
                }
                run = g;
                allInside = inside.getOrDefault(g, Boolean.TRUE);
            }
            allInside = allInside && f.isParked() && waitsInside(f.blocker(), pool, false);
        }
        if (run != null) {
            inside.put(run, allInside);
        }
        Set<RunGroup> runs = new HashSet<>();
        inside.forEach((g, all) -> {
            if (all && !g.hasFailed()) {
                runs.add(g);
            }
        });
        return runs;
    }

    @Override
    public boolean unreachable(WorkerPool pool, List<Schedulable> fibers) {
        for (Schedulable c : fibers) {
            if (!((Fiber) c).isParked()) {
                return false; // cannot be, since nothing reached it; but a report must be certain
            }
        }
        boolean reported = report(pool, fibers);
        for (Schedulable c : fibers) {
            Fiber f = (Fiber) c;
            RunGroup g = f.group();
            if (g != null && g.isCancelling()) {
                f.cancel(); // its run began cancelling while the fiber hung in the probe, out of its sweep's sight
            }
        }
        return reported;
    }

    @Override
    public boolean onlyTimersCanWake(WorkerPool pool) {
        for (Schedulable c : pool.liveSnapshot()) {
            Fiber f = (Fiber) c;
            Object blocker = f.blocker();
            boolean timed = blocker instanceof TimerEntry
                    || (blocker instanceof Selection && ((Selection) blocker).guardsOnlyUsedBy(pool, true));
            if (!f.isParked() || !(timed || waitsInside(blocker, pool, true))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String hangWarning(WorkerPool pool, List<Schedulable> fibers, long nanos) {
        Set<String> madeOutside = new LinkedHashSet<>();
        StringBuilder dump = new StringBuilder();
        for (Schedulable c : fibers) {
            Fiber f = (Fiber) c;
            Object blocker = f.blocker();
            if (!waitsInside(blocker, pool, true) && waitsInside(blocker, pool, false)) {
                madeOutside.add(String.valueOf(blocker));
            }
            dump.append(entry(f));
        }
        int n = fibers.size();
        StringBuilder b = new StringBuilder().append("a Weft.run on scheduler ").append(pool.name())
                .append(" seems to hang: its ").append(n).append(n == 1 ? " fiber has" : " fibers have")
                .append(" been blocked for ").append(Durations.roughly(nanos)).append(", with nothing else to run,")
                .append(" and no deadlock can be reported because something outside the run can still reach ")
                .append(n == 1 ? "it" : "them").append(" or what ").append(n == 1 ? "it waits" : "they wait")
                .append(" on, and so may still wake ").append(n == 1 ? "it: " : "them: ");
        if (madeOutside.isEmpty()) {
            b.append("a plain thread, a static field, a task or another scheduler's fiber holds it.");
        } else {
            b.append("a plain thread made ").append(String.join(", ", madeOutside))
                    .append(", and its frames (the method that called Weft.run) may still hold ")
                    .append(madeOutside.size() == 1 ? "it" : "them")
                    .append(". Made inside the run (in its main process), a deadlock would be reported.");
        }
        return b.append(" Fibers:\n").append(dump).toString();
    }

    /** Fails each run with a fiber among {@code live}, unless it failed already; whether one was failed. */
    private static boolean report(WorkerPool pool, List<Schedulable> live) {
        Map<RunGroup, StringBuilder> reports = new LinkedHashMap<>();
        Map<RunGroup, Integer> counts = new LinkedHashMap<>();
        for (Schedulable c : live) {
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
        return !reports.isEmpty();
    }

    /**
     * Whether only fibers of {@code pool} have used what {@code blocker} stands for; with
     * {@code creatorCounts}, a primitive a plain thread made does not qualify (see {@link Uses}).
     */
    private static boolean waitsInside(Object blocker, WorkerPool pool, boolean creatorCounts) {
        if (blocker instanceof Waitable) {
            return ((Waitable) blocker).onlyUsedBy(pool, creatorCounts);
        }
        if (blocker instanceof Barrier) {
            return ApiAccess.api().onlyUsedBy((Barrier) blocker, pool, creatorCounts);
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
