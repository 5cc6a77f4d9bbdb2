package dev.weft.net.poll;

import dev.weft.csp.runtime.WorkerPool;
import dev.weft.csp.spi.Poller;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.DefaultChannelPromise;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.util.concurrent.AbstractScheduledEventExecutor;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;
import io.netty.util.internal.PlatformDependent;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * A Netty event loop without a thread of its own: one per Weft carrier, which drives it as its {@link Poller}
 * (an idle carrier waits in its epoll, a busy one polls it between slices), so that frames are decoded, and the
 * fibers they wake run, on the carrier that read the socket.
 *
 * <p><b>The driver.</b> Whoever runs the loop holds it, one thread at a time (a compare-and-set): its carrier
 * while it polls or waits, or, while its carrier is held in a long slice, an idle carrier of the same scheduler
 * ({@link #pollAside}), or, between two polls, a fiber on any carrier of the scheduler for the channel
 * operations it makes ({@link #enter}: a write reaches the socket at once instead of waiting for the carrier's
 * next poll, a whole slice away when that carrier is busy). Netty's "in the event loop" means "the thread that
 * holds the loop now"; what other threads ask of its channels while it is held (or at any time, from a thread
 * that may not take it) is queued as a task and run, in order, by a driver before it polls or operates inline.
 * Taking and leaving the loop orders the driver's work (the handler's state, the channels' pipelines) before
 * the next driver's, as a single event loop thread would.
 *
 * <p>No queued task is left behind by a driver that lets go: a thread that queued because the loop was held
 * may have done so just after the driver's last look at the queue, so the driver looks again after letting go
 * ({@link #leave}), and a fiber that queued tries once more to take the loop ({@link #enter} after its
 * operation). Of the two, one sees the other (both are volatile accesses, a write then a read, on each side):
 * the task, or the loop free. A plain thread's task may still wait for the next driver.
 */
public final class CarrierLoop extends AbstractScheduledEventExecutor implements IoEventLoop, Poller {
    /** The most queued tasks one drive runs before it polls, so that I/O is never starved by a task storm. */
    private static final int TASKS_PER_DRIVE = 1024;
    /** How long a carrier that finds its loop held by a helper sleeps before it looks again. */
    private static final long HELD_NANOS = 50_000;

    private final CarrierLoops parent;
    private final Thread carrier;
    private final IoHandler handler;
    private final Queue<Runnable> tasks = PlatformDependent.newMpscQueue();
    private final AtomicReference<Thread> driver = new AtomicReference<>();
    private final Promise<Void> terminated = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
    /**
     * Set by the carrier when its poll finds the loop held (another carrier writing inline, or polling aside),
     * cleared by the next poll: the holder polls for it as it lets go ({@link #leave}), else the carrier's
     * sockets would wait for its next poll, a whole turn of its fibers away.
     */
    private volatile boolean pollMissed;
    /** Set by {@link #wakeUp}, read by a blocking poll just before it blocks, cleared once it has returned. */
    private volatile boolean wakeRequested;
    private volatile boolean closed;
    /** The bound of the blocking poll under way (driver only). */
    private long waitNanos;
    /** How many times this loop has polled its sockets, and how many of those polls could not block (driver only). */
    private volatile long polls, pollsWithoutBlocking;
    private boolean initialized;
    private final IoHandlerContext nonBlocking = new Context(false);
    private final IoHandlerContext blocking = new Context(true);

    CarrierLoop(CarrierLoops parent, Thread carrier, IoHandlerFactory io) {
        super(parent);
        this.parent = parent;
        this.carrier = carrier;
        this.handler = io.newHandler(this);
    }

    /** The carrier thread whose loop this is. */
    public Thread carrier() {
        return carrier;
    }

    // ------------------------------------------------------------------ the Poller, driven by the carrier

    @Override
    public void pollNow() {
        boolean taken = take();
        if (!taken && carrier == Thread.currentThread()) {
            pollMissed = true; // then look again: the holder may have let go before it could see the flag
            taken = take();
        }
        if (taken) {
            try {
                drive(nonBlocking);
            } finally {
                leave();
            }
        }
    }

    /**
     * Runs the queued tasks (a link's drain of the frames its fibers wrote) without polling: the carrier's batch
     * has run out, and its writes leave before it looks for work and waits. Timers and sockets wait for the poll.
     * Held by a helper right now, the loop is left to it: it runs what is queued before it lets go.
     */
    @Override
    public void flush() {
        if (!closed && !tasks.isEmpty() && take()) {
            try {
                initialize();
                runQueued(TASKS_PER_DRIVE);
            } finally {
                leave();
            }
        }
    }

    @Override
    public void await(long nanos) {
        if (!take()) { // a helper polls it right now (pollAside, driveUntil): only for a moment
            LockSupport.parkNanos(Math.min(nanos, HELD_NANOS));
            return;
        }
        try {
            waitNanos = nanos;
            drive(blocking);
        } finally {
            leave();
            wakeRequested = false; // the carrier looks for work again before it waits again
        }
    }

    /**
     * How many times this loop has polled its sockets (an {@code epoll_wait} each, blocking or not): tests count
     * them against the waits of its carrier.
     */
    public long polls() {
        return polls;
    }

    /**
     * How many of {@link #polls} could not block ({@code epoll_wait} with no timeout): a busy carrier's between
     * slices, a helper's beside a long slice; an idle carrier blocks at once.
     */
    public long pollsWithoutBlocking() {
        return pollsWithoutBlocking;
    }

    @Override
    public void wakeUp() {
        wakeRequested = true; // before the handler's wake-up: a poll about to block sees one or the other
        handler.wakeup();
    }

    @Override
    public void pollAside() {
        pollNow(); // takes the loop only if nobody holds it: its carrier, being in a slice, does not
    }

    /**
     * The carrier's slices run as Netty's own threads' do: Netty's object pools (the outbound buffer's entries,
     * the pooled buffers' objects and their thread's own magazine) recycle only on threads that say they clear
     * their {@code FastThreadLocal}s, and a plain thread that does not say so allocates each of them anew, on every
     * write and read.
     */
    @Override
    public void runCarrier(Runnable dispatching) {
        FastThreadLocalThread.runWithFastThreadLocal(dispatching);
    }

    /** The carrier stops: the loop's channels are closed, what is queued runs, and the handler is released. */
    @Override
    public void close() {
        closed = true;
        while (!take()) {
            LockSupport.parkNanos(HELD_NANOS); // a helper is finishing a poll
        }
        try {
            initialize();
            runTasks(Integer.MAX_VALUE);
            handler.prepareToDestroy();
            runTasks(Integer.MAX_VALUE);
            handler.destroy();
            runTasks(Integer.MAX_VALUE);
        } finally {
            leave();
            terminated.trySuccess(null);
            parent.closed(this);
        }
    }

    /**
     * Blocks the calling thread until {@code done} or {@code nanos} pass; true if done. A carrier that waits
     * (a blocking call made from a fiber, such as a node starting inside {@code Weft.run}) drives this loop
     * meanwhile, so that it cannot hold up the I/O it waits for.
     */
    public boolean driveUntil(BooleanSupplier done, long nanos) {
        long deadline = System.nanoTime() + nanos;
        boolean onCarrier = carrier == Thread.currentThread() || CarrierLoops.here() != null;
        while (!done.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            if (onCarrier) {
                pollNow();
            }
            if (!done.getAsBoolean()) {
                LockSupport.parkNanos(Math.min(left, HELD_NANOS));
            }
        }
        return true;
    }

    /**
     * Takes this loop, if nobody holds it, for the calling carrier (this loop's or another of its scheduler), so
     * that the channel operations a fiber makes next run inline: a write reaches the socket now, not at the next
     * poll of a carrier that may be in a long slice. True if taken, and then {@link #exit()} must follow on the
     * same thread. False on a thread that is not a carrier of this loop's scheduler (it could be descheduled
     * while it holds the loop, and its carrier would wait), while anyone holds the loop (the calling carrier
     * included: its operations are then inline anyway), or once the loop is closing. Its carrier is not in
     * epoll meanwhile (it would hold the loop), so nothing it must hear of is lost: the I/O stays for its next
     * poll, and a wake-up rung meanwhile ends that poll at once.
     *
     * <p>What was queued before runs first, all of it: a fiber's earlier operations may have been queued
     * (the loop was held then) and must reach the channel before the ones it makes inline now.
     */
    public boolean enter() {
        if (closed || !mayEnter() || !take()) {
            return false;
        }
        initialize();
        runTasks(Integer.MAX_VALUE);
        return true;
    }

    /** Whether the calling thread is a carrier of this loop's scheduler. */
    private boolean mayEnter() {
        if (carrier == Thread.currentThread()) {
            return true;
        }
        CarrierLoop here = CarrierLoops.here();
        return here != null && here.parent == parent;
    }

    /** Leaves the loop {@link #enter()} took, after running what the inline operations queued. */
    public void exit() {
        try {
            runTasks(TASKS_PER_DRIVE);
        } finally {
            leave();
        }
    }

    /** Whether the calling carrier has fibers waiting to run (false on any other thread). */
    private static boolean hasWorkHere() {
        WorkerPool pool = WorkerPool.current();
        return pool != null && pool.hasOtherWorkHere();
    }

    private boolean take() {
        return driver.compareAndSet(null, Thread.currentThread());
    }

    /**
     * Lets the loop go. A task queued after this driver's last look at the queue, by a thread that found the
     * loop held, would wait for the next driver, a slice away if the carrier is busy (the queuer's wake-up only
     * ends a wait in epoll): the queue is read again after letting go, and the loop taken back to run it (see
     * the class javadoc on the driver). So is a poll its carrier missed meanwhile ({@link #pollMissed}): the
     * carrier sets the flag and then tries the loop again, the holder lets go and then reads the flag, so one
     * of them polls. The fibers that poll wakes run here, as a poll aside's do.
     */
    private void leave() {
        driver.set(null);
        while (!closed && (pollMissed || !tasks.isEmpty()) && take()) {
            if (pollMissed) {
                drive(nonBlocking); // the carrier's poll, missed while this thread held the loop
            } else {
                runTasks(TASKS_PER_DRIVE);
            }
            driver.set(null);
        }
    }

    private void initialize() {
        if (!initialized) {
            initialized = true;
            handler.initialize();
        }
    }

    /** One round, as the driver: queued tasks (writes first out), I/O, then the tasks the I/O queued. */
    private void drive(IoHandlerContext context) {
        pollMissed = false; // this poll is the one missed, if any
        initialize();
        runTasks(TASKS_PER_DRIVE);
        polls = polls + 1;
        if (context == nonBlocking) {
            pollsWithoutBlocking = pollsWithoutBlocking + 1;
        }
        handler.run(context);
        // What the I/O queued. Timers that fell due meanwhile wait for the next drive, which fetches them first
        // thing (an idle carrier's comes at once): one clock read less per poll, on the way to the woken fibers.
        runQueued(TASKS_PER_DRIVE);
    }

    private void runTasks(int max) {
        fetchFromScheduledTaskQueue(tasks);
        runQueued(max);
    }

    private void runQueued(int max) {
        for (int n = 0; n < max; n++) {
            Runnable task = tasks.poll();
            if (task == null) {
                return;
            }
            safeExecute(task);
        }
    }

    /** What the I/O handler may do in one round: block (bounded by the carrier and the loop's timers) or not. */
    private final class Context implements IoHandlerContext {
        private final boolean mayBlock;

        Context(boolean mayBlock) {
            this.mayBlock = mayBlock;
        }

        /**
         * Whether the poll may wait. Not if the carrier has fibers to run: a task this drive ran before its
         * poll (a write queued by a fiber on another carrier, say) may have woken a fiber onto this carrier's
         * own queue, which rings no wake-up, so waiting would leave it runnable while the carrier sleeps.
         */
        @Override
        public boolean canBlock() {
            return mayBlock && !wakeRequested && tasks.isEmpty() && !closed && !hasWorkHere();
        }

        @Override
        public long delayNanos(long currentTimeNanos) {
            return mayBlock ? CarrierLoop.this.delayNanos(currentTimeNanos, waitNanos) : 0;
        }

        @Override
        public long deadlineNanos() {
            if (!mayBlock) {
                return -1;
            }
            long next = nextScheduledTaskDeadlineNanos();
            if (waitNanos == Long.MAX_VALUE) {
                return next;
            }
            long now = ticker().nanoTime();
            return next == -1 || next - now > waitNanos ? now + waitNanos : next;
        }
    }

    // ------------------------------------------------------------------ Netty's event loop

    @Override
    public boolean inEventLoop(Thread thread) {
        return driver.get() == thread;
    }

    @Override
    public void execute(Runnable task) {
        Objects.requireNonNull(task, "task");
        if (terminated.isDone()) {
            throw new RejectedExecutionException("the carrier " + carrier.getName() + " has stopped");
        }
        tasks.add(task);
        // Another thread's task: its carrier may be waiting in epoll; a busy one takes the task as it next polls.
        // The carrier's own (a fiber's write) rings nothing: only the carrier waits in epoll, and it looks at the
        // queue before it does (its flush, then canBlock).
        if (Thread.currentThread() != carrier && !inEventLoop()) { // the carrier's own test first: no volatile read
            handler.wakeup();
        }
    }

    @Override
    public Future<IoRegistration> register(IoHandle handle) {
        Promise<IoRegistration> promise = newPromise();
        Runnable register = () -> {
            try {
                promise.setSuccess(handler.register(handle));
            } catch (Exception e) {
                promise.setFailure(e);
            }
        };
        if (inEventLoop()) {
            register.run();
        } else {
            execute(register);
        }
        return promise;
    }

    @Override
    public ChannelFuture register(Channel channel) {
        return register(new DefaultChannelPromise(channel, this));
    }

    @Override
    public ChannelFuture register(ChannelPromise promise) {
        promise.channel().unsafe().register(this, promise);
        return promise;
    }

    @Deprecated
    @Override
    public ChannelFuture register(Channel channel, ChannelPromise promise) {
        channel.unsafe().register(this, promise);
        return promise;
    }

    @Override
    public boolean isCompatible(Class<? extends IoHandle> handleType) {
        return handler.isCompatible(handleType);
    }

    @Override
    public boolean isIoType(Class<? extends io.netty.channel.IoHandler> handlerType) {
        return handler.getClass().equals(handlerType);
    }

    @Override
    public CarrierLoop next() {
        return this;
    }

    @Override
    public CarrierLoops parent() {
        return parent;
    }

    /** Does nothing: the loop lives as long as its carrier (its scheduler's close stops both). */
    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        return terminated;
    }

    /** Does nothing: see {@link #shutdownGracefully(long, long, TimeUnit)}. */
    @Deprecated
    @Override
    public void shutdown() {
    }

    @Override
    public Future<?> terminationFuture() {
        return terminated;
    }

    @Override
    public boolean isShuttingDown() {
        return closed;
    }

    @Override
    public boolean isShutdown() {
        return terminated.isDone();
    }

    @Override
    public boolean isTerminated() {
        return terminated.isDone();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return terminated.await(timeout, unit);
    }

    @Override
    public String toString() {
        return "CarrierLoop[" + carrier.getName() + "]";
    }
}
