package dev.weft.csp;

import dev.weft.csp.runtime.SchedulerMXBean;
import dev.weft.csp.runtime.Simulation;
import dev.weft.csp.runtime.WorkerPool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;

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
 * returns the same text as {@link #dumpFibers(PrintStream)}; set {@code -Dweft.jmx=false} to skip it.
 */
public final class Scheduler implements AutoCloseable {
    private static final AtomicInteger IDS = new AtomicInteger();
    private static final boolean JMX = !"false".equals(System.getProperty("weft.jmx"));
    private static volatile Scheduler defaultScheduler;

    final WorkerPool pool;
    private final ObjectName mbeanName;

    private Scheduler(int workers, String name) {
        this(new WorkerPool(workers, name, Scheduler::printUncaught));
    }

    private Scheduler(WorkerPool pool) {
        this.pool = pool;
        pool.setDeadlockCheck(new DeadlockDetector());
        this.mbeanName = JMX ? register(pool.name()) : null;
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

    /**
     * A scheduler for tests (see {@code dev.weft:csp-test}): one carrier, driven by {@code simulation}. Its
     * fibers' deadlines ({@link Timer}, {@link Guards#timeout}, timed joins, {@link Select#timeout}) run on
     * the simulation's virtual clock, which jumps to the next timer as soon as every fiber waits (and no
     * plain thread or blocking call could still wake one); each next fiber, each alternative's first guard,
     * and a yield at each channel operation are drawn from its seed. A run that spends the step budget fails
     * as a deadlocked one does ({@link DeadlockException}), its message saying so, with a fiber dump.
     */
    public static Scheduler simulated(Simulation simulation) {
        Scheduler s = new Scheduler(new WorkerPool("weft-simulated-" + IDS.incrementAndGet(),
                Scheduler::printUncaught, simulation));
        s.pool.onBudgetSpent(() -> s.pool.failRuns(new DeadlockException("the run took more than "
                + (simulation.steps() - 1) + " scheduling steps (a livelock, or a budget too small); fibers:\n"
                + s.dumpFibers())));
        return s;
    }

    /** The shared scheduler, one worker per available processor, created on first use. */
    public static Scheduler defaultScheduler() {
        Scheduler s = defaultScheduler;
        if (s == null) {
            synchronized (Scheduler.class) {
                s = defaultScheduler;
                if (s == null) {
                    s = new Scheduler(Runtime.getRuntime().availableProcessors(), "weft-default");
                    defaultScheduler = s;
                }
            }
        }
        return s;
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

    private ObjectName register(String name) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName on = new ObjectName("dev.weft:type=Scheduler,name=" + name);
            server.registerMBean(new StandardMBean(new Management(), SchedulerMXBean.class, true), on);
            return on;
        } catch (JMException | RuntimeException | LinkageError e) {
            return null; // management is optional: a scheduler works without it
        }
    }

    private void unregister() {
        if (mbeanName != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(mbeanName);
            } catch (JMException | RuntimeException e) {
                // already gone
            }
        }
    }

    private static void printUncaught(Object fiber, Throwable t) {
        System.err.println("Exception in " + fiber + ":");
        t.printStackTrace();
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
