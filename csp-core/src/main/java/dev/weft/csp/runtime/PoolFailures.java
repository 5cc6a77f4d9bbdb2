package dev.weft.csp.runtime;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Where the failures of one pool go: a fiber's failure that nobody joined to the scheduler's handler,
 * something that escapes a carrier's slice to the log, and what fails every {@code Weft.run} the pool serves
 * (a carrier that dies, a simulation's spent step budget) to those runs, which it keeps for that.
 */
final class PoolFailures {
    private static final System.Logger LOG = System.getLogger("dev.weft.csp");
    private final String scheduler;
    private final BiConsumer<String, Throwable> uncaughtHandler;
    /** The {@code Weft.run} calls in progress, told if a carrier dies. */
    private final Set<RunGroup> runs = ConcurrentHashMap.newKeySet();
    /** Fails the runs of a simulated pool whose step budget is spent. */
    private volatile Runnable budgetSpent;

    PoolFailures(String scheduler, BiConsumer<String, Throwable> uncaughtHandler) {
        this.scheduler = scheduler;
        this.uncaughtHandler = uncaughtHandler;
    }

    /** Hands the failure of {@code fiber} (as dumps name it), which nobody joined, to the scheduler's handler. */
    void uncaught(String fiber, Throwable t) {
        try {
            uncaughtHandler.accept(fiber, t);
        } catch (Throwable again) {
            // the handler itself failed (out of memory, a failing toString): a carrier must survive it
            try {
                LOG.log(System.Logger.Level.ERROR, "the uncaught-failure handler of scheduler " + scheduler + " failed",
                        again);
            } catch (Throwable ignored) {
                // nothing more can be said
            }
        }
    }

    /** Something escaped a fiber's slice (a bug in the runtime or a handler): report it; the carrier goes on. */
    static void carrierFailure(Schedulable c, Throwable t) {
        try {
            LOG.log(System.Logger.Level.ERROR, "Weft carrier " + Thread.currentThread().getName()
                    + ": unexpected failure in " + c, t);
        } catch (Throwable ignored) {
            // reporting failed too (out of memory): the carrier goes on regardless
        }
    }

    void runStarted(RunGroup run) {
        runs.add(run);
    }

    void runEnded(RunGroup run) {
        runs.remove(run);
    }

    /** Fails every run in progress with {@code report} (see {@link RunGroup#fail}). */
    void failRuns(Throwable report) {
        for (RunGroup run : runs) {
            run.fail(report);
        }
    }

    /** A carrier died of {@code why}: every run in progress fails (see {@link RunGroup#crash}), and it is logged. */
    void carrierDied(Throwable why) {
        for (RunGroup run : runs) {
            run.crash(why);
        }
        carrierFailure(null, why);
    }

    void onBudgetSpent(Runnable action) {
        this.budgetSpent = action;
    }

    /** The simulation's step budget is spent: the carrier, between two fibers, reports it. */
    void budgetSpent() {
        Runnable action = budgetSpent;
        if (action != null) {
            action.run();
        }
    }
}
