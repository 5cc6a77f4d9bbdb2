package dev.weft.csp;

import dev.weft.csp.runtime.Carrier;
import java.util.concurrent.locks.LockSupport;

/**
 * A plain thread's own fiber ({@link Fiber#THREAD_BOUND} for good): pausable code called from a plain thread
 * runs in thread mode, where every pause blocks the thread on the fiber's {@link Fiber#permit}, and a wake-up
 * sets the permit and unparks the thread ({@link Fiber#unparkReserved}). An interrupt withdraws the wait
 * exactly as a cancellation withdraws a fiber's. On a carrier thread there is no such fiber: blocking the
 * carrier would stall every fiber queued on it ({@link CarrierMisuse}).
 */
final class ThreadMode {
    private static final ThreadLocal<Fiber> THREAD_FIBER = new ThreadLocal<>();

    private ThreadMode() {
    }

    /** The fiber bound to the calling plain thread; refused on a carrier, where blocking would stall fibers. */
    static Fiber forThread() {
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
            f = new Fiber(t);
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
    static void block(Fiber f, Object blocker) {
        while (!f.permit) { // volatile: the waker's writes before it set the permit are visible after
            if (f.thread().isInterrupted()) {
                if (withdraw(blocker, f)) {
                    throw f.cancelledError();
                }
                awaitPermit(f);
                return;
            }
            LockSupport.park(f);
        }
        f.permit = false; // only this thread takes its permit; a later wake-up sets it again
    }

    /** Blocks thread-bound {@code f} until unparked, whatever interrupts come (they are kept for later). */
    static void awaitPermit(Fiber f) {
        boolean interrupted = Thread.interrupted();
        while (!f.permit) {
            LockSupport.park(f);
            interrupted |= Thread.interrupted();
        }
        f.permit = false;
        if (interrupted) {
            f.thread().interrupt();
        }
    }

    /**
     * Blocks thread-bound {@code f} until unparked (true), or until {@code deadline} passes or the thread is
     * interrupted (false, the permit untouched).
     */
    static boolean blockUntil(Fiber f, long deadline) {
        while (!f.permit) {
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
        f.permit = false;
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
            return ((Barrier) blocker).withdraw(f);
        }
        if (blocker instanceof Fiber) {
            return Joiners.remove((Fiber) blocker, f);
        }
        if (blocker instanceof Readiness) {
            return ((Readiness) blocker).withdraw(f);
        }
        return true; // a bare park: nothing registered anywhere
    }
}
