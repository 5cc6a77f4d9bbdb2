package dev.weft.csp;

import dev.weft.csp.internal.Deadlines;
import dev.weft.csp.internal.DeadlockDetector;
import dev.weft.csp.internal.FiberDump;
import dev.weft.csp.management.SchedulerMXBean;
import dev.weft.csp.runtime.SchedulerMBeans;
import dev.weft.csp.runtime.Simulation;
import dev.weft.csp.runtime.WorkerPool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * Runs fibers on a fixed set of carrier threads. One scheduler serves any number of {@link Weft#run} calls,
 * one after another or at once. {@link #close()} refuses new work and stops the carriers once no fiber is
 * left.
 *
 * <p>Scheduling follows CCSP: each worker (one per carrier) runs a private FIFO run queue of batches; a
 * fiber woken by the running fiber, or spawned by it, joins the waker's batch, so communicating fibers stay
 * on one carrier; batches are split when their fibers turn out to be independent, and idle workers steal
 * whole batches without locks. Idle carriers park after a few microseconds: an idle program uses no CPU.
 * Sleeping fibers are timer entries, never threads.
 *
 * <p>While open, a scheduler is registered with the platform MBean server as
 * {@code dev.weft:type=Scheduler,name=NAME} ({@link SchedulerMXBean}), whose {@code dumpFibers} operation
 * returns the same text as {@link #dumpFibers(PrintStream)}; set {@code -Dweft.jmx=false} to skip it. Weft
 * never creates that server (the JVM's own MXBeans would cost a fresh JVM a few hundred milliseconds): the
 * MBean is registered as soon as a JMX agent or the application has created it ({@link SchedulerMBeans}).
 */
public final class Scheduler implements AutoCloseable {
    private static final AtomicInteger IDS = new AtomicInteger();
    private static final boolean JMX = !"false".equals(System.getProperty("weft.jmx"));
    private static volatile Scheduler defaultScheduler;

    final WorkerPool pool;

    private Scheduler(int workers, String name) {
        this(new WorkerPool(workers, name, Scheduler::logUncaught), Builder.defaultHangWarning());
    }

    private Scheduler(WorkerPool pool, Duration hangWarning) {
        this.pool = pool;
        pool.setHangWarning(Deadlines.nanos(hangWarning));
        pool.setDeadlockCheck(new DeadlockDetector());
        if (JMX) {
            SchedulerMBeans.register(new Management());
        }
    }

    /** A work-stealing scheduler with {@code workers} carrier threads. */
    public static Scheduler create(int workers) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + workers);
        }
        return new Scheduler(workers, "weft-" + IDS.incrementAndGet());
    }

    /** A scheduler with one carrier: fibers run one at a time in a deterministic order. */
    public static Scheduler singleThreaded() {
        return new Scheduler(1, "weft-single-" + IDS.incrementAndGet());
    }

    /** See {@link dev.weft.csp.spi.Extensions#simulated}. */
    static Scheduler simulated(Simulation simulation) {
        Scheduler s = new Scheduler(new WorkerPool("weft-simulated-" + IDS.incrementAndGet(),
                Scheduler::logUncaught, simulation), Duration.ZERO);
        s.pool.onBudgetSpent(() -> s.pool.failRuns(new DeadlockException("the run took more than "
                + (simulation.steps() - 1) + " scheduling steps (a livelock, or a budget too small); fibers:\n"
                + s.dumpFibers())));
        return s;
    }

    /**
     * A builder for a scheduler with other settings than {@link #create(int)}'s: where the failures of fibers
     * nobody joins go, and when a run that seems to hang is reported.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The shared scheduler, one worker per available processor, created on first use. Its carrier threads end
     * when they are interrupted while it has no fiber (as an application is torn down); the next call then
     * starts a new one.
     */
    public static Scheduler defaultScheduler() {
        Scheduler s = defaultScheduler;
        if (s == null) {
            synchronized (Scheduler.class) {
                s = defaultScheduler;
                if (s == null) {
                    s = new Scheduler(Runtime.getRuntime().availableProcessors(), "weft-default");
                    Scheduler retiring = s;
                    s.pool.onInterruptedWhenIdle(() -> retireDefault(retiring));
                    defaultScheduler = s;
                }
            }
        }
        return s;
    }

    /**
     * An idle carrier of the default scheduler {@code s} was interrupted with no fiber left (an application
     * being torn down, as {@code mvn exec:java} does after main returns): it closes, so that its threads end,
     * and the next use of the default scheduler starts a new one.
     */
    private static void retireDefault(Scheduler s) {
        synchronized (Scheduler.class) {
            if (defaultScheduler == s) {
                defaultScheduler = null;
            }
        }
        s.pool.close();
        s.unregister();
    }

    /** The number of carrier threads. */
    public int workers() {
        return pool.size();
    }

    /** The scheduler's name: its carrier threads are {@code NAME-0}, {@code NAME-1}...; its MBean's name. */
    public String name() {
        return pool.name();
    }

    /**
     * Writes a fiber dump to {@code out}: every fiber of this scheduler that has started and not ended, with
     * its state (runnable, running, parked), what a parked fiber waits on (a channel, a barrier, a timer, a
     * {@link Weft#blocking} call), and its woven stack as {@code at Class.method(File.java:line)} lines,
     * innermost first, the way {@code jstack} shows threads. A running fiber shows its carrier's stack.
     * Nothing is stopped to take it: it is a snapshot, exact for fibers that stay parked meanwhile.
     */
    public void dumpFibers(PrintStream out) {
        FiberDump.write(pool, out);
    }

    /** The fiber dump of {@link #dumpFibers(PrintStream)} as a string. */
    public String dumpFibers() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        dumpFibers(out);
        out.flush();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * Refuses new work from now on ({@link Weft#run} and {@link Weft#spawn} throw IllegalStateException) and
     * returns at once. The carriers stop once no fiber is left: a fiber that can still be woken (by a plain
     * thread, a timer, a blocking call) keeps running until it ends, so nothing is stranded.
     *
     * @throws IllegalStateException on the default scheduler, which is shared
     */
    @Override
    public void close() {
        if (this == defaultScheduler) {
            throw new IllegalStateException("the default scheduler is shared and cannot be closed");
        }
        pool.close();
        unregister();
    }

    @Override
    public String toString() {
        return "Scheduler[" + name() + ", " + workers() + (workers() == 1 ? " worker]" : " workers]");
    }

    private void unregister() {
        if (JMX) {
            SchedulerMBeans.unregister(name());
        }
    }

    /** The default handler of failures nobody joined: logger {@code dev.weft.csp}, level ERROR, with the stack. */
    private static void logUncaught(String fiber, Throwable t) {
        System.getLogger("dev.weft.csp").log(System.Logger.Level.ERROR, "Exception in " + fiber
                + ", which nobody joined:", t);
    }

    /**
     * The settings of a new scheduler; {@link #build()} starts it. Unset, each is as {@link #create(int)} has
     * it: one worker per available processor, failures logged, hangs reported after 10 seconds.
     */
    public static final class Builder {
        private int workers = Runtime.getRuntime().availableProcessors();
        private BiConsumer<String, Throwable> uncaughtFailureHandler = Scheduler::logUncaught;
        private Duration hangWarning = defaultHangWarning();

        private Builder() {
        }

        /** The number of carrier threads, at least 1. */
        public Builder workers(int workers) {
            if (workers < 1) {
                throw new IllegalArgumentException("workers must be at least 1, got " + workers);
            }
            this.workers = workers;
            return this;
        }

        /**
         * Where the failure of a spawned fiber (or a {@link Weft#async} task) goes when nobody joins it: the
         * handler gets the fiber's name, as fiber dumps show it, and what it threw; once, and only once it is
         * certain that nobody will join it, which is when its {@link Weft#run} returns or, for a fiber spawned
         * outside every run, when its handle ({@link Fiber}, {@link Task}) has become unreachable. A failure
         * that a join rethrows is never handed to it. The handler runs on a thread of Weft's (the thread that
         * returns from {@code Weft.run}, or a daemon thread); what it throws is ignored. The default logs it
         * through {@link System.Logger} (logger {@code dev.weft.csp}, level ERROR) with its stack. A failure still
         * unjoined after the {@linkplain #hangWarning hang-warning delay} is shown at once as well, as a warning
         * (level WARNING, with its stack): a run that waits for what the failed fiber would have done might
         * otherwise hang in silence. The warning takes nothing from a later join or from this handler.
         */
        public Builder uncaughtFailureHandler(BiConsumer<String, Throwable> handler) {
            if (handler == null) {
                throw new NullPointerException("handler is null");
            }
            this.uncaughtFailureHandler = handler;
            return this;
        }

        /**
         * How long every fiber of a run may stay blocked on channels, barriers or joins, with the scheduler at
         * rest, before a warning says so when no deadlock can be reported because something outside the run
         * (a plain thread's frame, a static field, another scheduler) still holds what they wait on: one
         * warning per hang, through {@link System.Logger} (logger {@code dev.weft.csp}, level WARNING), with
         * the fiber dump and what kept the report from being made. Also how long a failed fiber's failure waits
         * for a join before a warning shows it (see {@link #uncaughtFailureHandler}). Default 10 seconds, or the
         * system property {@code weft.hangWarningMillis}; zero or negative: never.
         */
        public Builder hangWarning(Duration after) {
            if (after == null) {
                throw new NullPointerException("duration is null");
            }
            this.hangWarning = after;
            return this;
        }

        /** Starts the scheduler's carriers. */
        public Scheduler build() {
            return new Scheduler(new WorkerPool(workers, "weft-" + IDS.incrementAndGet(), uncaughtFailureHandler),
                    hangWarning);
        }

        static Duration defaultHangWarning() {
            return Duration.ofMillis(Long.getLong("weft.hangWarningMillis", 10_000));
        }
    }

    /** The MBean behind {@link SchedulerMXBean}. */
    private final class Management implements SchedulerMXBean {
        @Override
        public String getName() {
            return name();
        }

        @Override
        public int getWorkers() {
            return workers();
        }

        @Override
        public int getLiveFibers() {
            return pool.liveFibers();
        }

        @Override
        public long getSteals() {
            return pool.steals();
        }

        @Override
        public long getDeadlockProbes() {
            return pool.deadlockProbes();
        }

        @Override
        public long getDeadlockProbesRefuted() {
            return pool.deadlockProbesRefuted();
        }

        @Override
        public String dumpFibers() {
            return Scheduler.this.dumpFibers();
        }
    }
}
