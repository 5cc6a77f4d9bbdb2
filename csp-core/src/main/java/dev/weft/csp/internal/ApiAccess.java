package dev.weft.csp.internal;

import dev.weft.csp.Barrier;
import dev.weft.csp.CSProcess;
import dev.weft.csp.Fiber;
import dev.weft.csp.Readiness;
import dev.weft.csp.Scheduler;
import dev.weft.csp.runtime.RunGroup;
import dev.weft.csp.runtime.Simulation;
import dev.weft.csp.runtime.WorkerPool;

/**
 * What this package needs of the API package beyond its public API: the fiber's constructors, a scheduler's pool,
 * a barrier's and a readiness's side of the deadlock check and of an interrupt. Implemented in the API package and
 * installed by {@link Fiber} as it initialises, as the JDK's {@code SharedSecrets} are; {@link #api()} returns it
 * from a final field, so that the JIT calls it directly.
 */
public abstract class ApiAccess {
    private static volatile ApiAccess installed;

    /** For the API package alone. */
    protected ApiAccess() {
    }

    /** Installs the API package's implementation; once, from {@link Fiber}'s static initialiser. */
    public static synchronized void install(ApiAccess access) {
        if (installed != null) {
            throw new IllegalStateException("the API package's access is installed already");
        }
        installed = access;
    }

    /** The installed implementation. */
    static ApiAccess api() {
        return Installed.API;
    }

    /** Holds the implementation in a final field, once {@link Fiber} (which installs it) has initialised. */
    private static final class Installed {
        static final ApiAccess API = installed();

        private static ApiAccess installed() {
            try {
                Class.forName(Fiber.class.getName(), true, Fiber.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new ExceptionInInitializerError(e);
            }
            return installed;
        }
    }

    /** A fiber for {@code process} in run {@code group} (or none): {@link FiberLifecycle#launch} queues it. */
    protected abstract Fiber newFiber(CSProcess process, RunGroup group);

    /** The fiber of a plain thread (see {@link ThreadMode#forThread()}). */
    protected abstract Fiber newFiber(Thread thread);

    /** The pool that runs {@code scheduler}'s fibers. */
    protected abstract WorkerPool pool(Scheduler scheduler);

    /** A scheduler on {@code simulation}'s virtual time (see {@link dev.weft.csp.spi.Extensions#simulated}). */
    protected abstract Scheduler simulated(Simulation simulation);

    /** {@code barrier}'s withdrawal of {@code f}'s wait, for an interrupted thread ({@link ThreadMode#withdraw}). */
    protected abstract boolean withdraw(Barrier barrier, Fiber f);

    /** {@code readiness}'s withdrawal of {@code f}'s wait, for an interrupted thread ({@link ThreadMode#withdraw}). */
    protected abstract boolean withdraw(Readiness readiness, Fiber f);

    /** As {@link Waitable#onlyUsedBy}, for a barrier (see {@link DeadlockDetector}). */
    protected abstract boolean onlyUsedBy(Barrier barrier, WorkerPool pool, boolean creatorCounts);
}
