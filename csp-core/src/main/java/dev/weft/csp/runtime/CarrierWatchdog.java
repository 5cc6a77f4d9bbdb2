package dev.weft.csp.runtime;

import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.CodeSource;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Warns when user code blocks a carrier: a fiber that calls {@code Thread.sleep}, blocking I/O or a lock, or
 * computes for long without pausing, stalls every fiber queued behind it, and nothing else would say so. One
 * daemon thread ({@code weft-carrier-watchdog}) looks at every scheduler's carriers a few times per threshold
 * ({@code weft.stuckCarrierMillis}, default 50 ms, 0 to switch off); it runs while a scheduler's carriers
 * run, and ends when none does or when it is interrupted (the next scheduler started starts it again). Once a
 * whole round has passed in which no carrier ran a slice, and every carrier waits for work, it sleeps until a
 * carrier wakes.
 *
 * <p>A slice seen running past the threshold is reported once, through {@link System.Logger} (logger
 * {@code dev.weft.csp}, level WARNING), naming the fiber, with its carrier's stack taken while that slice still
 * ran, and as a JFR event ({@link RuntimeEvents.StuckCarrier}), if it is user blocking:
 * <ul>
 *   <li>the carrier waits in the JVM (sleeps, waits for a lock or a monitor): blocked;
 *   <li>it is runnable but has used under half of the time on a processor, in a native method that can block
 *       (a socket's read, a file's, a library's native code; not the JDK's memory and array natives), and the
 *       kernel, where it shows threads ({@link KernelTask}), has it asleep: blocking I/O. Runnable in Java code
 *       without using the processor, or in a native call that the kernel keeps runnable (a non-blocking
 *       socket's send), it is only descheduled (the machine is loaded), which is nobody's fault;
 *   <li>it has used ten times the threshold of processor time in that slice: a long computation.
 * </ul>
 * Processor time is the carrier thread's ({@link ThreadMXBean#getThreadCpuTime}), as Loom's pinning event and
 * BlockHound look at what a thread really does rather than at the clock. The code that blocks is the innermost
 * frame outside the JDK; when that is Weft's own (its lock, a barrier waking a million parties, a class of
 * csp-core being loaded) or the JDK is loading a class, it is not the user's blocking and nothing is said.
 * Looking costs the carriers nothing: the watchdog only reads what each worker publishes (the fiber it runs
 * and its slice count); an idle carrier runs no fiber and is never looked at further.
 *
 * <p>The watchdog also serves the scheduler: idle carriers sleep soundly beside short slices, so a slice seen
 * at two rounds ({@value #LONGEST_ROUND_NANOS} ns apart at most, whatever the threshold) is handed to its
 * worker ({@link Idling#sliceLasts}), which wakes an idle carrier to take the fibers queued behind it. And it
 * registers the schedulers' MBeans once an MBean server exists ({@link SchedulerMBeans}).
 */
final class CarrierWatchdog {
    private static final System.Logger LOG = System.getLogger("dev.weft.csp");
    private static final CodeSource WEFT = CarrierWatchdog.class.getProtectionDomain().getCodeSource();
    /** Whether a class, by name, is Weft's own (loaded from csp-core): asked rarely, kept. */
    private static final Map<String, Boolean> OWN = new ConcurrentHashMap<>();
    private static final Map<WorkerPool, Watch[]> POOLS = new ConcurrentHashMap<>();
    private static volatile Thread thread; // written under the class's monitor; read without it by carrierWoke
    /**
     * Set while the watchdog sleeps because every carrier waits for work; the first carrier to wake clears it and
     * wakes the watchdog ({@link #carrierWoke}), so a doze ends once however many wake-ups follow.
     */
    private static final AtomicBoolean DOZING = new AtomicBoolean();
    /** How many times a carrier's wake-up has ended a doze (for tests). */
    private static final AtomicLong DOZES_ENDED = new AtomicLong();
    /**
     * The longest doze: the MBeans of a JMX agent that comes while all is idle are registered within it. Tests
     * make it long, to show that a carrier's wake-up ends a doze.
     */
    static volatile long dozeNanos = 1_000_000_000;
    /** The longest time between two rounds: a slice that lasts this long is handed to its worker. */
    static final long LONGEST_ROUND_NANOS = 12_500_000;

    private CarrierWatchdog() {
    }

    /** What the watchdog knows of one worker's current slice. Its thread alone reads and writes it. */
    private static final class Watch {
        final Worker worker;
        int slice;
        /** When this slice was first seen running. */
        long since;
        /** The carrier's processor time when the slice was seen a second time, and when that was; -1: not yet. */
        long cpuAtSecondLook = -1;
        long secondLook;
        /** Not before this time is the slice's stack taken again (a stack costs the carrier a handshake). */
        long nextStack;
        boolean reported;

        Watch(Worker worker) {
            this.worker = worker;
        }
    }

    /** The threshold in nanoseconds, read each round so that it can be changed while running; 0: off. */
    static long thresholdNanos() {
        return Math.max(0, Long.getLong("weft.stuckCarrierMillis", 50)) * 1_000_000;
    }

    /** Starts watching {@code pool}'s carriers (and the watchdog, if it does not run). */
    static void watch(WorkerPool pool) {
        Worker[] workers = pool.workers();
        Watch[] watches = new Watch[workers.length];
        for (int i = 0; i < workers.length; i++) {
            watches[i] = new Watch(workers[i]);
        }
        POOLS.put(pool, watches);
        synchronized (CarrierWatchdog.class) {
            if (thread == null) {
                thread = new Thread(CarrierWatchdog::loop, "weft-carrier-watchdog");
                thread.setDaemon(true);
                thread.start();
            } else {
                LockSupport.unpark(thread); // it may doze: the new pool's carriers start without a wake-up
            }
        }
    }

    /** Stops watching {@code pool}, whose carriers have stopped; the watchdog ends with the last pool. */
    static void unwatch(WorkerPool pool) {
        POOLS.remove(pool);
        synchronized (CarrierWatchdog.class) {
            Thread t = thread;
            if (t != null && POOLS.isEmpty()) {
                LockSupport.unpark(t); // to see that it is not needed any more
            }
        }
    }

    /** Whether the watchdog thread runs now (for tests). */
    static synchronized boolean isRunning() {
        return thread != null;
    }

    private static void loop() {
        boolean quietRound = false; // whether no carrier ran a slice during the last round (none yet: not quiet)
        for (;;) {
            synchronized (CarrierWatchdog.class) {
                // watch() adds its pool before it looks at the thread: a pool added after this look starts another
                if (POOLS.isEmpty() || Thread.currentThread().isInterrupted()) {
                    thread = null;
                    return;
                }
            }
            // Only a quiet scheduler is worth a doze: a carrier that waits between short bursts of work (a request
            // and its reply, tens of microseconds apart) would otherwise end a doze at each burst, a futex call
            // and a wake-up of this thread per message; while it works in bursts the watchdog keeps its rounds.
            if (quietRound && everyCarrierWaits()) {
                // a carrier that woke it: watch a whole round before dozing again
                quietRound = !doze();
                SchedulerMBeans.registerWaiting(); // as after any round: an agent may have come meanwhile
                continue;
            }
            long threshold = thresholdNanos();
            sleepRound(threshold == 0 ? LONGEST_ROUND_NANOS
                    : Math.max(5_000_000L, Math.min(threshold / 4, LONGEST_ROUND_NANOS)));
            SchedulerMBeans.registerWaiting(); // once a JMX agent or the application has made the MBean server
            long now = System.nanoTime();
            quietRound = true;
            for (Watch[] watches : POOLS.values()) {
                for (Watch w : watches) {
                    try {
                        quietRound &= !look(w, now, threshold);
                    } catch (RuntimeException | Error e) {
                        // the carrier stopped as we looked, or a fiber's toString failed: the watchdog goes on
                        quietRound = false;
                    }
                }
            }
        }
    }

    /**
     * Sleeps for a whole round: a quiet round must be that long, and an unpark meant for a doze that had already
     * ended (a carrier's, or a new pool's) would otherwise cut it short. Ends early only when the watchdog is no
     * longer needed or is interrupted.
     */
    private static void sleepRound(long nanos) {
        long due = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = due - System.nanoTime()) {
            if (POOLS.isEmpty() || Thread.currentThread().isInterrupted()) {
                return;
            }
            LockSupport.parkNanos(left);
        }
    }

    /**
     * Sleeps while every carrier waits for work (no slice to watch), so that an idle program is not woken 80 times
     * a second; the first carrier to wake wakes the watchdog ({@link #carrierWoke}). Returns whether a carrier
     * ended the doze (rather than its time, or an interrupt). The Dekker pair: this sets
     * {@link #DOZING} and then reads each {@link Worker#parked}; a carrier clears its own and then reads
     * {@link #DOZING} (all volatile), so either the watchdog sees the carrier awake or the carrier sees it doze.
     */
    private static boolean doze() {
        DOZING.set(true);
        if (everyCarrierWaits()) {
            LockSupport.parkNanos(dozeNanos);
        }
        return !DOZING.getAndSet(false);
    }

    private static boolean everyCarrierWaits() {
        for (Watch[] watches : POOLS.values()) {
            for (Watch w : watches) {
                if (!w.worker.isParked()) {
                    return false;
                }
            }
        }
        return true;
    }

    /** A carrier has woken from its park (after clearing {@link Worker#parked}): the watchdog watches again. */
    static void carrierWoke() {
        // volatile read first (see doze()); the CAS lets one carrier end a doze: the others find it ended
        if (DOZING.get() && DOZING.compareAndSet(true, false)) {
            Thread t = thread;
            if (t != null) {
                DOZES_ENDED.incrementAndGet();
                LockSupport.unpark(t); // a stray unpark only ends a later round early
            }
        }
    }

    /** How many times a carrier's wake-up has ended a doze so far (for tests). */
    static long dozesEnded() {
        return DOZES_ENDED.get();
    }

    /** Whether the watchdog sleeps because every carrier waits (for tests). */
    static boolean isDozing() {
        return DOZING.get();
    }

    /**
     * Looks at one worker: a slice that has lasted past the threshold and blocks for the user is reported, once.
     * Returns whether the worker has run a slice since the last round, or runs one now.
     */
    private static boolean look(Watch w, long now, long threshold) {
        Worker worker = w.worker;
        Schedulable fiber = worker.running;
        int slice = worker.slices();
        if (fiber == null || slice != w.slice) {
            boolean ran = slice != w.slice || fiber != null;
            w.slice = slice;
            w.since = now;
            w.cpuAtSecondLook = -1;
            w.nextStack = now;
            w.reported = false;
            return ran;
        }
        lookAtLastingSlice(w, worker, fiber, slice, now, threshold);
        return true;
    }

    /** A slice seen at two rounds or more: hand it to its worker, and report it once if it blocks for the user. */
    private static void lookAtLastingSlice(Watch w, Worker worker, Schedulable fiber, int slice, long now,
            long threshold) {
        Idling.sliceLasts(worker); // seen at two rounds: an idle carrier may have to take what waits behind it
        if (threshold == 0) {
            return;
        }
        Carrier carrier = worker.thread();
        if (w.cpuAtSecondLook < 0) { // a slice that lasts: from now on its processor time counts
            w.cpuAtSecondLook = cpuTime(carrier);
            w.secondLook = now;
        }
        if (w.reported || now - w.since < threshold || now - w.nextStack < 0) {
            return;
        }
        Thread.State state = carrier.getState();
        long cpu = w.cpuAtSecondLook < 0 ? -1 : cpuTime(carrier) - w.cpuAtSecondLook;
        boolean waiting = state == Thread.State.BLOCKED || state == Thread.State.WAITING
                || state == Thread.State.TIMED_WAITING;
        boolean computing = cpu >= 10 * threshold;
        boolean offProcessor = cpu >= 0 && state == Thread.State.RUNNABLE && cpu < (now - w.secondLook) / 2;
        if (!waiting && !computing && !offProcessor) {
            return;
        }
        StackTraceElement[] stack = carrier.getStackTrace();
        w.nextStack = now + threshold; // a slice found innocent is looked at again a threshold later, not each round
        if (worker.running != fiber || worker.slices() != slice) {
            return; // the slice ended as the stack was taken: that stack is another's
        }
        String how = waiting ? "blocked in the JVM (" + state + ")"
                : computing ? "computing (" + cpu / 1_000_000 + " ms of processor time)"
                : "in a native call (blocking I/O?)";
        if (!blocksForTheUser(stack, waiting || computing)) {
            return;
        }
        if (!waiting && !computing && carrier.kernelSaysRunnable()) {
            return; // off the processor in a native call, but not asleep in the kernel: descheduled, not blocked
        }
        w.reported = true;
        report(fiber, carrier, now - w.since, how, stack);
    }

    /**
     * Whether {@code stack} shows user code blocking: the innermost frame outside the JDK is not Weft's own, no
     * class is being loaded, and, unless the carrier waits or computes ({@code sure}), the innermost frame is
     * a native method that can block (blocking I/O rather than a descheduled thread).
     */
    static boolean blocksForTheUser(StackTraceElement[] stack, boolean sure) {
        if (stack.length == 0 || !(sure || mayBlock(stack[0]))) {
            return false;
        }
        for (StackTraceElement e : stack) {
            String c = e.getClassName();
            if (c.equals("java.lang.ClassLoader") || c.startsWith("jdk.internal.loader.")) {
                return false; // loading a class (a cold JVM reads and verifies it): not the user's blocking
            }
            if (!isJdk(c)) {
                return !isWeft(c);
            }
        }
        return false;
    }

    /**
     * Whether a native frame can wait for the world: the JDK's I/O and processes, or a library's own native code.
     * The JDK's other natives compute (a buffer zeroed by {@code Unsafe.setMemory}, an array copied): a carrier
     * seen there off the processor is descheduled, not blocked.
     */
    private static boolean mayBlock(StackTraceElement top) {
        if (!top.isNativeMethod()) {
            return false;
        }
        String c = top.getClassName();
        return !isJdk(c) || c.startsWith("sun.nio.") || c.startsWith("java.io.") || c.startsWith("java.net.")
                || c.startsWith("sun.net.") || c.startsWith("java.lang.Process");
    }

    private static boolean isJdk(String className) {
        return className.startsWith("java.") || className.startsWith("javax.") || className.startsWith("jdk.")
                || className.startsWith("sun.") || className.startsWith("com.sun.");
    }

    /** Whether the class named {@code className} is part of csp-core (a hidden class or an unknown one is not). */
    private static boolean isWeft(String className) {
        return className.startsWith("dev.weft.") && OWN.computeIfAbsent(className, n -> {
            try {
                Class<?> c = Class.forName(n, false, CarrierWatchdog.class.getClassLoader());
                return Objects.equals(c.getProtectionDomain().getCodeSource(), WEFT);
            } catch (ClassNotFoundException | LinkageError | SecurityException e) {
                return false;
            }
        });
    }

    /** The JVM's thread MXBean, made at the first slice that lasts: its classes would weigh on every start. */
    private static final class Threads {
        static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();
    }

    /** The processor time {@code t} has used, in nanoseconds, or -1 where the JVM cannot tell. */
    private static long cpuTime(Thread t) {
        try {
            ThreadMXBean threads = Threads.MX;
            return threads.isThreadCpuTimeEnabled() ? threads.getThreadCpuTime(t.getId()) : -1;
        } catch (UnsupportedOperationException e) {
            return -1;
        }
    }

    /** Reports a slice of {@code fiber} on {@code carrier} that has lasted {@code nanos} so far, at {@code stack}. */
    private static void report(Object fiber, Thread carrier, long nanos, String how, StackTraceElement[] stack) {
        long ms = nanos / 1_000_000;
        RuntimeEvents.stuckCarrier(String.valueOf(fiber), carrier.getName(), ms);
        if (!LOG.isLoggable(Level.WARNING)) {
            return;
        }
        StringBuilder b = new StringBuilder().append(fiber).append(" has held carrier ").append(carrier.getName())
                .append(" for ").append(ms).append(" ms without pausing, ").append(how)
                .append(", stalling the fibers queued behind it. A blocking call (Thread.sleep, I/O, a lock) belongs")
                .append(" in Weft.blocking; a long computation can call Fiber.yieldIfDue(). The fiber is at:");
        for (StackTraceElement e : ProcessFrames.of(stack)) {
            b.append("\n\tat ").append(e);
        }
        LOG.log(Level.WARNING, b.toString());
    }
}
