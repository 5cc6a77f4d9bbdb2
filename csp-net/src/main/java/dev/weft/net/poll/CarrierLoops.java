package dev.weft.net.poll;

import dev.weft.csp.Scheduler;
import dev.weft.csp.runtime.WorkerPool;
import dev.weft.csp.spi.Extensions;
import dev.weft.csp.spi.Poller;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.AbstractEventExecutorGroup;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;
import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link CarrierLoop}s of one scheduler, one per carrier, plugged in as the carriers' pollers the first time a
 * library asks for them ({@link #of}) and living as long as the carriers. As a Netty event loop group, {@link #next}
 * is the calling carrier's own loop (a connection opened or accepted on a carrier is served by it), or from another
 * thread the loops in turn. Epoll where available, NIO elsewhere.
 *
 * <p>The entry points for code that registers Netty channels on the carriers: {@code CarrierLoops.of(scheduler)}
 * (or {@link #ofCurrentCarrier()} inside a fiber), then {@link #next()}, {@link #loop(int)}, or {@link #here()}
 * for the calling carrier's loop; {@code new Bootstrap().group(loops.next())...}.
 */
public final class CarrierLoops extends AbstractEventExecutorGroup implements IoEventLoopGroup {
    private final CarrierLoop[] loops;
    private final AtomicInteger nextIndex = new AtomicInteger();
    private final AtomicInteger open;
    private final Promise<Void> terminated = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);

    private final boolean epoll = Epoll.isAvailable();

    private CarrierLoops(WorkerPool pool) {
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Poller[] pollers = pool.plugPollers(carrier -> new CarrierLoop(this, carrier, io));
        for (Poller p : pollers) {
            if (!(p instanceof CarrierLoop)) {
                throw new IllegalStateException("the scheduler " + pool.name() + " already polls with " + p
                        + ": one I/O library per scheduler");
            }
        }
        loops = Arrays.copyOf(pollers, pollers.length, CarrierLoop[].class);
        open = new AtomicInteger(loops.length);
    }

    /** The carriers' loops of {@code scheduler}, plugging them in on first use. */
    public static CarrierLoops of(Scheduler scheduler) {
        return of(Extensions.pool(scheduler));
    }

    /** The carriers' loops of the scheduler whose carrier calls, or null on any other thread. */
    public static CarrierLoops ofCurrentCarrier() {
        WorkerPool pool = WorkerPool.current();
        return pool == null || pool.simulation() != null ? null : of(pool); // a simulated clock polls nothing
    }

    private static CarrierLoops of(WorkerPool pool) {
        synchronized (pool) { // as plugPollers: two libraries asking at once get the same loops
            return pool.pollers()[0] instanceof CarrierLoop first ? first.parent() : new CarrierLoops(pool);
        }
    }

    /** The calling carrier's loop, or null on any thread that is not a carrier with one. */
    public static CarrierLoop here() {
        return WorkerPool.pollerHere() instanceof CarrierLoop loop ? loop : null;
    }

    /** Whether the loops run on epoll (their channels are epoll's), else on NIO. */
    public boolean epoll() {
        return epoll;
    }

    /** The loop of carrier {@code index} (0 to the number of carriers - 1). */
    public CarrierLoop loop(int index) {
        return loops[index];
    }

    /** The calling carrier's loop if it is one of these, else the next loop in turn ({@link #inTurn}). */
    @Override
    public CarrierLoop next() {
        CarrierLoop here = here();
        if (here != null && here.parent() == this) {
            return here;
        }
        return inTurn();
    }

    /**
     * The loops in turn, whoever calls: where a server deals the connections it accepts, so that they spread
     * evenly over the carriers, as in a Netty event loop group.
     */
    public CarrierLoop inTurn() {
        return loops[Math.floorMod(nextIndex.getAndIncrement(), loops.length)];
    }

    @Deprecated
    @Override
    public io.netty.channel.ChannelFuture register(io.netty.channel.Channel channel, io.netty.channel.ChannelPromise promise) {
        return next().register(channel, promise);
    }

    void closed(CarrierLoop loop) {
        if (open.decrementAndGet() == 0) {
            terminated.trySuccess(null);
        }
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Iterator<EventExecutor> iterator() {
        return (Iterator) Arrays.asList((EventExecutor[]) loops).iterator();
    }

    /** Does nothing: the loops live as long as their carriers (the scheduler's close stops both). */
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
        return terminated.isDone();
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
}
