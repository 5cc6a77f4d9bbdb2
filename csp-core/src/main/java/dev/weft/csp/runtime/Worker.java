package dev.weft.csp.runtime;

import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;

/**
 * One carrier's loop: a private FIFO run queue for fibers woken on this carrier, an inbox for fibers
 * handed over by other threads, and a timer heap. When idle it takes work from other workers' inboxes,
 * then parks until a timer is due or work arrives (an idle program uses no CPU).
 */
final class Worker implements Runnable {
    private static final int SPINS = 64;

    final WorkerPool pool;
    private final int index;
    private final ArrayDeque<Continuation> local = new ArrayDeque<>();
    private final ConcurrentLinkedQueue<Continuation> inbox = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<TimerEntry> externalTimers = new ConcurrentLinkedQueue<>();
    private final PriorityQueue<TimerEntry> timers = new PriorityQueue<>();
    private long timerSeq;
    private volatile boolean sleeping;
    private Carrier thread;
    /** The fiber this carrier is running right now. */
    Continuation running;

    Worker(WorkerPool pool, int index) {
        this.pool = pool;
        this.index = index;
    }

    void start(String name) {
        thread = new Carrier(this, name);
        thread.start();
    }

    /** The worker whose carrier is the calling thread, or null. */
    static Worker current() {
        Thread t = Thread.currentThread();
        return t instanceof Carrier ? ((Carrier) t).worker : null;
    }

    void pushLocal(Continuation c) {
        local.addLast(c);
    }

    void pushExternal(Continuation c) {
        inbox.offer(c);
        wake();
    }

    void addTimer(long deadline, Runnable wake) {
        timers.add(new TimerEntry(deadline, timerSeq++, wake));
    }

    void addTimerExternal(long deadline, Runnable wake) {
        externalTimers.offer(new TimerEntry(deadline, 0, wake));
        wake();
    }

    void wake() {
        if (sleeping) {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public void run() {
        for (;;) {
            Continuation c = next();
            if (c != null) {
                running = c;
                c.runSlice();
                running = null;
                continue;
            }
            if (pool.closed && timers.isEmpty() && inbox.isEmpty() && externalTimers.isEmpty()) {
                return;
            }
            idle();
        }
    }

    private Continuation next() {
        Continuation c = local.pollFirst();
        if (c != null) {
            return c;
        }
        c = inbox.poll();
        if (c != null) {
            return c;
        }
        if (fireDueTimers()) {
            return local.pollFirst();
        }
        return steal();
    }

    private boolean fireDueTimers() {
        TimerEntry e;
        while ((e = externalTimers.poll()) != null) {
            timers.add(new TimerEntry(e.deadline, timerSeq++, e.wake));
        }
        if (timers.isEmpty()) {
            return false;
        }
        long now = System.nanoTime();
        boolean fired = false;
        while ((e = timers.peek()) != null && e.deadline - now <= 0) {
            timers.poll();
            e.wake.run();
            fired = true;
        }
        return fired && !local.isEmpty();
    }

    private Continuation steal() {
        Worker[] all = pool.workers();
        for (int i = 1; i < all.length; i++) {
            Continuation c = all[(index + i) % all.length].inbox.poll();
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    private void idle() {
        for (int i = 0; i < SPINS; i++) {
            if (!inbox.isEmpty() || !externalTimers.isEmpty()) {
                return;
            }
            Thread.onSpinWait();
        }
        sleeping = true;
        try {
            if (!inbox.isEmpty() || !externalTimers.isEmpty() || pool.closed) {
                return;
            }
            TimerEntry first = timers.peek();
            if (first == null) {
                LockSupport.park(this);
            } else {
                long wait = first.deadline - System.nanoTime();
                if (wait > 0) {
                    LockSupport.parkNanos(this, wait);
                }
            }
        } finally {
            sleeping = false;
        }
    }

    private static final class TimerEntry implements Comparable<TimerEntry> {
        final long deadline;
        final long seq;
        final Runnable wake;

        TimerEntry(long deadline, long seq, Runnable wake) {
            this.deadline = deadline;
            this.seq = seq;
            this.wake = wake;
        }

        @Override
        public int compareTo(TimerEntry o) {
            int c = Long.compare(deadline - o.deadline, 0);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }
}
