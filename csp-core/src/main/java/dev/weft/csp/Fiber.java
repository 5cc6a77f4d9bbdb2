package dev.weft.csp;

import dev.weft.csp.runtime.Carrier;
import dev.weft.csp.runtime.Continuation;
import dev.weft.csp.runtime.RunGroup;
import dev.weft.csp.runtime.WorkerPool;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.locks.LockSupport;

/**
 * A lightweight process: the handle {@link Weft#spawn(CSProcess)} returns, and the continuation that woven
 * code carries. {@link #join()} waits for it to end; {@link #isDone()} asks without waiting.
 *
 * <p>Each plain Java thread that calls a pausable method gets a thread-bound fiber of its own: its pauses
 * block that thread instead of unwinding.
 */
public final class Fiber extends Continuation {
    // Scheduling states. A wake-up that arrives while the fiber is still running (it registered with a
    // channel and is unwinding) is remembered by RUNNING_WOKEN, so it is never lost.
    private static final int RUNNABLE = 0, RUNNING_STATE = 1, RUNNING_WOKEN = 2, PARKED = 3, DONE = 4;
    private static final AtomicIntegerFieldUpdater<Fiber> STATE =
            AtomicIntegerFieldUpdater.newUpdater(Fiber.class, "state");
    private static final ThreadLocal<Fiber> THREAD_FIBER = new ThreadLocal<>();
    private static final MethodHandle RUN_WOVEN = wovenRun();

    private final CSProcess process;
    private final WorkerPool pool;
    private final RunGroup group;
    private final Thread thread;
    private volatile int state;
    private volatile boolean permit;
    private Throwable failure;
    private List<Fiber> joiners;
    private boolean joined;

    /** A value handed over by the party that woke this fiber (a channel's writer, for one). */
    Object transfer;

    Fiber(CSProcess process, WorkerPool pool, RunGroup group) {
        this.process = process;
        this.pool = pool;
        this.group = group;
        this.thread = null;
    }

    private Fiber(Thread thread) {
        this.process = null;
        this.pool = null;
        this.group = null;
        this.thread = thread;
    }

    private static MethodHandle wovenRun() {
        try {
            return MethodHandles.publicLookup().findVirtual(CSProcess.class, "run",
                    MethodType.methodType(void.class, Fiber.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("csp-core was not woven: CSProcess.run(Fiber) is missing", e);
        }
    }

    /** Whether the process has ended, normally or by an exception. Never true for a thread's own fiber. */
    public boolean isDone() {
        return state == DONE;
    }

    /**
     * Waits for this fiber to end; rethrows the very exception its process threw, if it threw.
     * From a fiber this pauses it; from a plain thread it blocks the thread.
     */
    @Pausable
    public void join() {
        if (thread != null) {
            throw new IllegalStateException("a thread's own fiber never ends: join a fiber from Weft.spawn");
        }
        if (addJoiner(current())) {
            park();
        }
        Throwable t = failure;
        if (t != null) {
            throw Fiber.<RuntimeException>sneaky(t);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }

    private synchronized boolean addJoiner(Fiber waiter) {
        joined = true;
        if (state == DONE) {
            return false;
        }
        if (joiners == null) {
            joiners = new ArrayList<>(2);
        }
        joiners.add(waiter);
        return true;
    }

    // ---------------------------------------------------------------- primitives (hand-woven)

    /**
     * The running fiber: the caller's fiber inside woven code, the thread's own fiber otherwise.
     * Runtime use; the woven form below is what fibers execute.
     */
    @Pausable
    public static Fiber current() {
        return forThread();
    }

    /** Woven form of {@link #current()}. */
    public static Fiber current(Fiber f) {
        return f;
    }

    /**
     * Pauses the running fiber until {@link #unpark()} is called on it; a wake-up that came first is
     * not lost. On a plain thread this blocks the thread.
     */
    @Pausable
    public static void park() {
        forThread().blockThread();
    }

    /** Woven form of {@link #park()}: marks the fiber as pausing, or completes the resume. */
    public static void park(Fiber f) {
        if (f.mode == RESUMING) {
            f.mode = RUNNING;
        } else if (f.thread != null) {
            f.blockThread();
        } else if (f.state == RUNNING_WOKEN) {
            f.state = RUNNING_STATE; // woken before it could pause: go on without unwinding
        } else {
            f.mode = PAUSING;
        }
    }

    /** Makes a parked fiber runnable again; safe from any thread, and from the fiber itself. */
    public void unpark() {
        if (thread != null) {
            permit = true;
            LockSupport.unpark(thread);
            return;
        }
        for (;;) {
            int s = state;
            if (s == PARKED) {
                if (STATE.compareAndSet(this, PARKED, RUNNABLE)) {
                    pool.submit(this);
                    return;
                }
            } else if (s == RUNNING_STATE) {
                if (STATE.compareAndSet(this, RUNNING_STATE, RUNNING_WOKEN)) {
                    return;
                }
            } else {
                return; // already runnable, already woken, or ended
            }
        }
    }

    private void blockThread() {
        while (!permit) {
            LockSupport.park(this);
        }
        permit = false;
    }

    /** Blocks this thread's own fiber until unparked (true) or until {@code deadline} passes (false). */
    boolean blockThreadUntil(long deadline) {
        long wait;
        while (!permit) {
            if ((wait = deadline - System.nanoTime()) <= 0) {
                return false;
            }
            LockSupport.parkNanos(this, wait);
        }
        permit = false;
        return true;
    }

    /** Whether this is a plain thread's own fiber (pauses block the thread). */
    boolean isThreadBound() {
        return thread != null;
    }

    WorkerPool pool() {
        return pool;
    }

    RunGroup group() {
        return group;
    }

    /** The fiber bound to the calling plain thread; refused on a carrier, where blocking would stall fibers. */
    public static Fiber forThread() {
        return forThread(null);
    }

    /**
     * As {@link #forThread()}, for woven code that calls {@code pausable} (a method's name) from a method that
     * is not pausable.
     */
    public static Fiber forThread(String pausable) {
        Thread t = Thread.currentThread();
        if (t instanceof Carrier) {
            throw new IllegalStateException(CarrierMisuse.message(pausable));
        }
        Fiber f = THREAD_FIBER.get();
        if (f == null) {
            f = new Fiber(t);
            THREAD_FIBER.set(f);
        }
        return f;
    }

    // ---------------------------------------------------------------- running on a carrier

    @Override
    protected void runSlice() {
        for (;;) {
            // A release store is enough: a waker finds this fiber only through a later synchronizing
            // action of it (a channel CAS), which makes this store visible first.
            STATE.lazySet(this, RUNNING_STATE);
            mode = hasSavedFrames() ? RESUMING : RUNNING;
            try {
                RUN_WOVEN.invokeExact(process, this);
            } catch (AbstractMethodError | NoSuchMethodError e) {
                end(Unwoven.explain(e, process));
                return;
            } catch (Throwable t) {
                end(t);
                return;
            }
            if (mode != PAUSING) {
                end(null);
                return;
            }
            mode = RUNNING;
            if (STATE.compareAndSet(this, RUNNING_STATE, PARKED)) {
                return;
            }
            // A wake-up arrived while the fiber unwound: resume it at once.
        }
    }

    private void end(Throwable t) {
        clearSavedFrames();
        mode = RUNNING;
        failure = t;
        List<Fiber> waiting;
        boolean seen;
        synchronized (this) {
            state = DONE;
            waiting = joiners;
            joiners = null;
            seen = joined;
        }
        if (waiting != null) {
            for (Fiber w : waiting) {
                w.unpark();
            }
        }
        if (t != null && !seen && !(group != null && group.isMain(this))) {
            pool.uncaught(this, t);
        }
        if (group != null) {
            group.ended(this, t);
        }
    }

    /** Starts a new fiber for {@code p} in the given pool and run group. */
    static Fiber start(CSProcess p, WorkerPool pool, RunGroup group) {
        Fiber f = new Fiber(p, pool, group);
        f.launch();
        return f;
    }

    /** Queues this new fiber for its first run. */
    void launch() {
        if (group != null) {
            group.started();
        }
        state = RUNNABLE;
        pool.submitNew(this);
    }

    /** The fiber running on the calling carrier thread, or null on a plain thread. */
    static Fiber runningFiber() {
        return (Fiber) WorkerPool.runningHere();
    }

    @Override
    public String toString() {
        return thread != null ? "Fiber[thread " + thread.getName() + "]" : "Fiber[" + process + "]";
    }
}
