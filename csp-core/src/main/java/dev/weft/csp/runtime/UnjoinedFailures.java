package dev.weft.csp.runtime;

import java.lang.System.Logger.Level;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Failures of fibers that nobody had joined when they ended, held until it is certain that nobody will: then,
 * and only then, they go to their scheduler's handler, once. That is certain when
 * <ul>
 *   <li>the fiber's handle has become unreachable (the garbage collector cleared the weak reference to it), or
 *   <li>the {@code Weft.run} the fiber belonged to has returned (a handle kept beyond its run may still be
 *       joined, and rethrows, but the run is the scope its failures belong to).
 * </ul>
 * A join that comes first {@linkplain Entry#claim() claims} the failure, which is then never reported: as with
 * {@code CompletableFuture}, whoever joins gets the failure, and nobody else hears of it.
 *
 * <p>A failure still held after the scheduler's hang-warning delay (10 s by default) is also shown at once, as a
 * warning: a run that waits for what the failed fiber would have done may never return, and an idle program
 * may never collect the handle, so without it such a hang would be silent. The warning claims nothing: the
 * failure still goes to a joiner, or to the handler later.
 *
 * <p>A daemon thread ({@code weft-unjoined-failures}) waits for handles to become unreachable and warnings to
 * fall due while failures are held, and ends as soon as none is; interrupted, it reports what it holds (the
 * application is going away) and ends.
 */
public final class UnjoinedFailures {
    private static final ReferenceQueue<Object> UNREACHABLE = new ReferenceQueue<>();
    /** The entries held: strongly, so that their weak references are enqueued. */
    private static final Set<Entry> HELD = ConcurrentHashMap.newKeySet();
    private static final System.Logger LOG = System.getLogger("dev.weft.csp");
    /** The longest the thread waits for a handle at a time: how late at most a warning comes. */
    private static final long LOOK_MILLIS = 1_000;
    private static Thread thread; // under the class's monitor

    private UnjoinedFailures() {
    }

    /** The failure of one fiber nobody had joined as it ended: weakly refers to the fiber's handle. */
    public static final class Entry extends WeakReference<Object> {
        private final Throwable failure;
        private final String fiber;
        private final WorkerPool pool;
        private final RunGroup run;
        private final AtomicBoolean claimed = new AtomicBoolean();
        private final long heldAt = System.nanoTime();
        private boolean warned; // by the thread only

        private Entry(Object fiber, Throwable failure, WorkerPool pool, RunGroup run) {
            super(fiber, UNREACHABLE);
            this.failure = failure;
            this.fiber = String.valueOf(fiber);
            this.pool = pool;
            this.run = run;
        }

        /** The failure. */
        public Throwable failure() {
            return failure;
        }

        /** A join takes the failure: from now on it is never reported. */
        public void claim() {
            if (claimed.compareAndSet(false, true)) {
                HELD.remove(this);
            }
        }

        /** Reports the failure to the pool's handler, unless a join or an earlier report claimed it. */
        void report() {
            if (claimed.compareAndSet(false, true)) {
                HELD.remove(this);
                pool.uncaught(fiber, failure);
            }
        }
    }

    /**
     * Holds the failure of {@code fiber}, of {@code pool} and of {@code run} (or null outside every run), which
     * ended with nobody joined: the returned entry takes the failure's place in the fiber.
     */
    public static Entry hold(Object fiber, Throwable failure, WorkerPool pool, RunGroup run) {
        Entry e = new Entry(fiber, failure, pool, run);
        HELD.add(e);
        synchronized (UnjoinedFailures.class) {
            if (thread == null) {
                thread = new Thread(UnjoinedFailures::loop, "weft-unjoined-failures");
                thread.setDaemon(true);
                thread.start();
            }
        }
        return e;
    }

    /** Warns, once each, of the failures held past their scheduler's hang-warning delay. */
    private static void warnOfLongHeld() {
        long now = System.nanoTime();
        for (Entry e : HELD) {
            long delay = e.pool.hangWarningNanos();
            if (!e.warned && delay > 0 && now - e.heldAt >= delay && !e.claimed.get()) {
                e.warned = true;
                LOG.log(Level.WARNING, "the fiber " + e.fiber + " failed " + Durations.roughly(now - e.heldAt)
                        + " ago and nobody has joined it yet: if the program waits for what that fiber would have"
                        + " done, this is why. The failure still goes to whoever joins the fiber, or else to the"
                        + " scheduler's failure handler once its Weft.run returns (or its handle is dropped).",
                        e.failure);
            }
        }
    }

    /** {@code run} has returned: the failures of its fibers that nobody joined are reported now. */
    public static void runEnded(RunGroup run) {
        for (Entry e : HELD) {
            if (e.run == run) {
                e.report();
            }
        }
    }

    private static void loop() {
        try {
            for (;;) {
                synchronized (UnjoinedFailures.class) {
                    if (HELD.isEmpty()) {
                        thread = null; // a later hold() starts another: it sees no thread and HELD not empty
                        return;
                    }
                }
                Entry e = (Entry) UNREACHABLE.remove(LOOK_MILLIS);
                if (e != null) {
                    e.report();
                }
                warnOfLongHeld();
            }
        } catch (InterruptedException e) {
            for (Entry held : HELD) {
                held.report();
            }
            synchronized (UnjoinedFailures.class) {
                thread = null;
            }
        }
    }
}
