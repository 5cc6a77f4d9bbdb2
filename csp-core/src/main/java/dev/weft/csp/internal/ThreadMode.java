package dev.weft.csp.internal;

import dev.weft.csp.Barrier;
import dev.weft.csp.CancelledException;
import dev.weft.csp.Fiber;
import dev.weft.csp.Readiness;
import dev.weft.csp.runtime.Carrier;
import java.util.concurrent.locks.LockSupport;

/**
 * A plain thread's own fiber ({@link Fiber#THREAD_BOUND} for good): pausable code called from a plain thread
 * runs in thread mode, where every pause blocks the thread until the fiber's {@link Fiber#PERMIT} is given,
 * and a wake-up sets the permit and unparks the thread ({@link Fiber#unparkReserved}); a channel's wait has a
 * signal of its own ({@link #blockInQueue}). An interrupt withdraws the wait exactly as a cancellation withdraws a fiber's.
 * On a carrier thread there is no such fiber: blocking the carrier would stall every fiber queued on it
 * ({@link CarrierMisuse}).
 */
public final class ThreadMode {
    private static final ThreadLocal<Fiber> THREAD_FIBER = new ThreadLocal<>();

    private ThreadMode() {
    }

    /** The fiber bound to the calling plain thread; refused on a carrier, where blocking would stall fibers. */
    public static Fiber forThread() {
        return forThread(null);
    }

    /**
     * As {@link #forThread()}, for woven code that calls {@code pausable} (a method's name) from a method that
     * is not pausable.
     */
    static Fiber forThread(String pausable) {
        Thread t = Thread.currentThread();
        if (t instanceof Carrier) {
            throw new IllegalStateException(CarrierMisuse.message(pausable));
        }
        Fiber f = THREAD_FIBER.get();
        if (f == null) {
            f = ApiAccess.api().newFiber(t);
            THREAD_FIBER.set(f);
        }
        return f;
    }

    /** The calling plain thread's fiber if it has one already, or null (also on a carrier). */
    static Fiber ofThisThread() {
        return Thread.currentThread() instanceof Carrier ? null : THREAD_FIBER.get();
    }

    /**
     * Blocks thread-bound {@code f} until unparked. If the thread is interrupted first, its wait on
     * {@code blocker} is withdrawn and {@link CancelledException} thrown (interrupt status kept); if a partner
     * took the wait first, its wake-up is awaited and the operation completes.
     */
    public static void block(Fiber f, Object blocker) {
        await(f, Fiber.PERMIT, blocker);
    }

    /**
     * As {@link #block}, for {@code f} queued in {@code queue}: until the channel takes it out
     * ({@link Fiber#HANDED_OVER}); an {@link Fiber#unpark()} meanwhile stays given for a later park.
     */
    static void blockInQueue(Fiber f, ChannelQueue queue) {
        await(f, Fiber.HANDED_OVER, queue);
    }

    private static void await(Fiber f, byte kind, Object blocker) {
        while (!f.take(kind)) { // volatile: the waker's writes before it gave this wake-up are visible after
            if (f.thread().isInterrupted()) {
                if (withdraw(blocker, f)) {
                    throw f.cancelledError();
                }
                awaitRegardless(f, kind); // the partner's wake-up is on its way
                return;
            }
            LockSupport.park(f);
        }
    }

    /** Blocks thread-bound {@code f} until unparked, whatever interrupts come (they are kept for later). */
    public static void awaitPermit(Fiber f) {
        awaitRegardless(f, Fiber.PERMIT);
    }

    /** Blocks thread-bound {@code f} until wake-up {@code kind} is given, whatever interrupts come (kept for later). */
    private static void awaitRegardless(Fiber f, byte kind) {
        boolean interrupted = Thread.interrupted();
        while (!f.take(kind)) {
            LockSupport.park(f);
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            f.thread().interrupt();
        }
    }

    /**
     * Blocks thread-bound {@code f} until unparked (true), or until {@code deadline} passes or the thread is
     * interrupted (false, the permit untouched).
     */
    public static boolean blockUntil(Fiber f, long deadline) {
        while (!f.take(Fiber.PERMIT)) {
            long wait = Deadlines.remaining(deadline, System.nanoTime());
            if (wait == 0 || f.thread().isInterrupted()) {
                return false;
            }
            if (wait == Long.MAX_VALUE) {
                LockSupport.park(f);
            } else {
                LockSupport.parkNanos(f, wait);
            }
        }
        return true;
    }

    /**
     * Withdraws {@code f}'s wait on {@code blocker}, if it is still waiting there: true if it was (the wait is
     * now cancelled, nothing was exchanged), false if a partner has already taken it (the partner owns its
     * wake-up, which is on its way).
     */
    static boolean withdraw(Object blocker, Fiber f) {
        if (blocker instanceof ChannelQueue) {
            return ((ChannelQueue) blocker).withdraw(f);
        }
        if (blocker instanceof Selection) {
            return ((Selection) blocker).claim(Selection.CANCELLED);
        }
        if (blocker instanceof Barrier) {
            return ApiAccess.api().withdraw((Barrier) blocker, f);
        }
        if (blocker instanceof Fiber) {
            return Joiners.remove((Fiber) blocker, f);
        }
        if (blocker instanceof Readiness) {
            return ApiAccess.api().withdraw((Readiness) blocker, f);
        }
        return true; // a bare park: nothing registered anywhere
    }
}
