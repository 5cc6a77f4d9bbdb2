package dev.weft.csp.runtime;

import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The thread that runs the {@link DeadlockProbe}s of every pool: one daemon thread for the JVM, started when
 * a probe goes out, ending once none waits for its collection (or when it is interrupted: the next probe
 * starts another). It asks for a collection ({@link System#gc()}) once a probe's delay has passed, then sees
 * whether the probe's ring was found unreachable (its weak handle cleared: the finalizer will hand it back)
 * or not (the pool is told, and the probe asks again later, as long as it is out). It also takes the probes
 * the finalizer hands back and has the pool report them, so that no Weft code runs on the JVM's finalizer
 * thread. No frame of this thread holds a probe while it asks for a collection.
 */
final class DeadlockProbes {
    private static final System.Logger LOG = System.getLogger("dev.weft.csp");
    private static final Object LOCK = new Object();
    /** Probes waiting for their collection (under LOCK). */
    private static final List<Request> PENDING = new ArrayList<>();
    /** Probes the finalizer handed back (under LOCK). */
    private static final ArrayDeque<DeadlockProbe> UNREACHABLE = new ArrayDeque<>();
    private static Thread thread; // under LOCK
    /** Whether what the JVM's options do to deadlock reports has been said (see {@link #blindness}). */
    private static boolean blindnessTold; // under LOCK

    private DeadlockProbes() {
    }

    /** A probe of {@code pool}, known by its weak {@code handle}, wants a collection from {@code notBefore} on. */
    private static final class Request {
        final WorkerPool pool;
        final WeakReference<DeadlockProbe> handle;
        final long notBefore;

        Request(WorkerPool pool, WeakReference<DeadlockProbe> handle, long notBefore) {
            this.pool = pool;
            this.handle = handle;
            this.notBefore = notBefore;
        }
    }

    /** Asks for a collection for the probe behind {@code handle} once {@link System#nanoTime()} reaches {@code notBefore}. */
    static void collect(WorkerPool pool, WeakReference<DeadlockProbe> handle, long notBefore) {
        synchronized (LOCK) {
            PENDING.add(new Request(pool, handle, notBefore));
            start();
            LOCK.notifyAll();
        }
    }

    /** From the finalizer: the ring of {@code probe} was unreachable; {@code probe} is reachable again from here. */
    static void unreachable(DeadlockProbe probe) {
        synchronized (LOCK) {
            UNREACHABLE.add(probe);
            start();
            LOCK.notifyAll();
        }
    }

    private static void start() {
        if (thread == null) {
            thread = new Thread(DeadlockProbes::loop, "weft-deadlock-probe");
            thread.setDaemon(true);
            thread.start();
        }
    }

    /**
     * What the JVM's options {@code jvmArguments} do to deadlock reports, said once (through
     * {@link System.Logger}, logger {@code dev.weft.csp}) as the first probe goes out; null if nothing: the probes need {@code System.gc()} to collect and finalization to hand back.
     */
    static String blindness(List<String> jvmArguments) {
        if (jvmArguments.contains("--finalization=disabled")) {
            return "Weft reports no deadlock in this JVM: finalization is disabled (--finalization=disabled), and"
                    + " a deadlock probe needs it to get the fibers it found unreachable back. Deadlocked runs wait.";
        }
        if (jvmArguments.contains("-XX:+DisableExplicitGC")) {
            return "Weft reports deadlocks late in this JVM: System.gc() is disabled (-XX:+DisableExplicitGC), so"
                    + " a deadlock probe waits for a collection the JVM starts on its own.";
        }
        return null;
    }

    private static void loop() {
        synchronized (LOCK) {
            if (!blindnessTold) {
                blindnessTold = true;
                String warning = blindness(ManagementFactory.getRuntimeMXBean().getInputArguments());
                if (warning != null) {
                    LOG.log(System.Logger.Level.WARNING, warning);
                }
            }
        }
        for (;;) {
            try {
                if (!concludeOne()) {
                    List<Request> due = awaitDue();
                    if (due == null) {
                        return;
                    }
                    collect(due);
                }
            } catch (InterruptedException e) {
                synchronized (LOCK) {
                    thread = null; // what is left waits for the next request, which starts another thread
                }
                return;
            } catch (Throwable t) {
                try {
                    LOG.log(System.Logger.Level.ERROR, "weft-deadlock-probe: unexpected failure", t); // a bug: it goes on
                } catch (Throwable ignored) {
                    // nothing more can be said
                }
            }
        }
    }

    /** Has the pool of one probe the finalizer handed back report it; false if there was none. */
    private static boolean concludeOne() {
        DeadlockProbe p;
        synchronized (LOCK) {
            p = UNREACHABLE.poll();
        }
        if (p == null) {
            return false;
        }
        p.pool.probes.probeUnreachable(p);
        return true;
    }

    /**
     * Waits until some probe's delay has passed (those are returned) or the finalizer hands one back (empty);
     * null, the thread having been let go, once nothing is left to wait for.
     */
    private static List<Request> awaitDue() throws InterruptedException {
        synchronized (LOCK) {
            for (;;) {
                if (!UNREACHABLE.isEmpty()) {
                    return List.of();
                }
                long now = System.nanoTime();
                long wait = Long.MAX_VALUE;
                List<Request> due = new ArrayList<>();
                for (Iterator<Request> it = PENDING.iterator(); it.hasNext(); ) {
                    Request r = it.next();
                    long left = r.notBefore - now;
                    if (left <= 0) {
                        due.add(r);
                        it.remove();
                    } else {
                        wait = Math.min(wait, left);
                    }
                }
                if (!due.isEmpty()) {
                    return due;
                }
                if (wait == Long.MAX_VALUE) {
                    thread = null; // nothing pending: a later request starts another thread
                    return null;
                } else {
                    TimeUnit.NANOSECONDS.timedWait(LOCK, wait);
                }
            }
        }
    }

    /** One collection for every probe in {@code due} that is still out; then tells each pool what it found. */
    private static void collect(List<Request> due) {
        if (due.isEmpty()) {
            return;
        }
        due.removeIf(r -> !r.pool.probes.isOut(r.handle)); // taken back meanwhile: nothing left to ask
        if (due.isEmpty()) {
            return;
        }
        System.gc();
        for (Request r : due) {
            if (!r.handle.refersTo(null)) { // cleared: unreachable, and its finalization reports it
                r.pool.probes.probeRefuted(r.handle);
            }
        }
    }
}
