package dev.weft.csp.runtime;

import dev.weft.csp.spi.Poller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Channel;
import dev.weft.csp.Fiber;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.csp.spi.Extensions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@link Poller} hook, with a poller on the JDK's own selector and a pipe per carrier: real I/O, no library. */
@Timeout(60)
class PollerTest {
    /**
     * A carrier's poller: a selector watching a pipe whose bytes it offers, one by one, to a buffered channel (the
     * way a network library wakes fibers), noting the thread that read them.
     */
    static final class PipePoller implements Poller {
        final Selector selector;
        final Pipe pipe;
        final One2OneChannel<Integer> bytes = Channel.one2one(1 << 16);
        final AtomicBoolean held = new AtomicBoolean();
        /** What to run at the next poll, before it looks at the pipe (whoever polls: the carrier or a helper). */
        final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        volatile Thread lastReader;
        /** Set by {@link #wakeUp}, read by the carrier's wait just before it selects, cleared once it returned. */
        volatile boolean wakeRequested;
        /** How many times its carrier ran its dispatch loop inside {@link #runCarrier}, and how many returned. */
        final AtomicInteger loopsRun = new AtomicInteger(), loopsReturned = new AtomicInteger();
        volatile boolean closedInContext;

        PipePoller() {
            try {
                selector = Selector.open();
                pipe = Pipe.open();
                pipe.source().configureBlocking(false);
                pipe.source().register(selector, SelectionKey.OP_READ);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** Any thread: writes {@code b} into the pipe. */
        void send(int b) {
            try {
                pipe.sink().write(ByteBuffer.wrap(new byte[] {(byte) b}));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void pollNow() {
            poll(-1);
        }

        @Override
        public void await(long nanos) {
            poll(nanos == Long.MAX_VALUE ? 0 : Math.max(1, nanos / 1_000_000));
        }

        @Override
        public void wakeUp() {
            // The flag first: another carrier's poll aside (selectNow) clears the selector's own memory of a wake-up.
            wakeRequested = true;
            selector.wakeup(); // remembered by the selector if it comes before the select
        }

        @Override
        public void pollAside() {
            pollNow();
        }

        /** Marks the carrier's thread while its loop runs here, as a library's per-thread context would. */
        @Override
        public void runCarrier(Runnable dispatching) {
            loopsRun.incrementAndGet();
            IN_POLLER_CONTEXT.set(true);
            try {
                dispatching.run();
            } finally {
                IN_POLLER_CONTEXT.set(false);
                loopsReturned.incrementAndGet();
            }
        }

        @Override
        public void close() {
            closedInContext = IN_POLLER_CONTEXT.get();
            try {
                selector.close();
            } catch (IOException ignored) {
                // the test is over
            }
        }

        private void poll(long millis) {
            if (!held.compareAndSet(false, true)) {
                return;
            }
            try {
                for (Runnable task; (task = tasks.poll()) != null; ) {
                    task.run(); // as a network library runs its queued tasks (writes, a link to itself) first
                }
                boolean mayBlock = millis >= 0 && !wakeRequested; // read after the tasks, before the select
                int ready = mayBlock ? selector.select(millis) : selector.selectNow();
                if (millis >= 0) {
                    wakeRequested = false; // the carrier's own wait has returned: it looks for work next
                }
                if (ready > 0) {
                    selector.selectedKeys().clear();
                    ByteBuffer in = ByteBuffer.allocate(64);
                    while (pipe.source().read(in) > 0) {
                        in.flip();
                        while (in.hasRemaining()) {
                            Extensions.offer(bytes.out(), (int) in.get());
                        }
                        // After the offers: a test that sees the reader may then poll what it read.
                        lastReader = Thread.currentThread();
                        in.clear();
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                held.set(false);
            }
        }
    }

    /** Set on a carrier while its dispatch loop runs inside its {@link PipePoller#runCarrier}. */
    static final ThreadLocal<Boolean> IN_POLLER_CONTEXT = ThreadLocal.withInitial(() -> false);

    /**
     * Once a poller is plugged in, every slice its carrier runs runs inside the poller's {@link Poller#runCarrier},
     * entered once per carrier, and left as the carrier stops (before the poller is closed).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void slicesRunInsideThePollersCarrierContextOnceItIsPluggedIn(int workers) {
        PipePoller[] pollers;
        try (Scheduler s = Scheduler.create(workers)) {
            Weft.run(s, () -> { }); // the carriers have started; they idle when the pollers come
            pollers = plug(s);
            for (int round = 0; round < 50; round++) {
                AtomicInteger outside = new AtomicInteger();
                Weft.run(s, () -> {
                    Fiber[] fibers = new Fiber[20];
                    for (int i = 0; i < fibers.length; i++) {
                        fibers[i] = Weft.spawn(() -> {
                            for (int k = 0; k < 5; k++) {
                                if (!IN_POLLER_CONTEXT.get() || !(Thread.currentThread() instanceof Carrier)) {
                                    outside.incrementAndGet();
                                }
                                Fiber.yield();
                            }
                        });
                    }
                    for (Fiber f : fibers) {
                        f.join();
                    }
                });
                assertEquals(0, outside.get(), "slices run outside the poller's context, round " + round);
            }
        }
        for (PipePoller p : pollers) {
            assertTrue(p.loopsRun.get() <= 1, "a carrier entered its poller's context " + p.loopsRun + " times");
            long deadline = System.nanoTime() + 10_000_000_000L; // the carriers end after close() returns
            while (p.loopsReturned.get() != p.loopsRun.get() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(p.loopsRun.get(), p.loopsReturned.get(), "a carrier's loop did not leave the context");
            assertTrue(!p.closedInContext, "the poller was closed inside its carrier's context");
        }
        int entered = 0;
        for (PipePoller p : pollers) {
            entered += p.loopsRun.get();
        }
        assertTrue(entered >= 1, "no carrier entered its poller's context");
    }

    static PipePoller[] plug(Scheduler s) {
        Poller[] plugged = Extensions.pool(s).plugPollers(carrier -> new PipePoller());
        PipePoller[] out = new PipePoller[plugged.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (PipePoller) plugged[i];
        }
        return out;
    }

    @Test
    void aFiberWokenByItsCarriersPollerRunsOnTheThreadThatReadTheBytes() {
        try (Scheduler s = Scheduler.create(1)) {
            PipePoller p = plug(s)[0];
            AtomicReference<Thread> reader = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                for (int i = 0; i < 100; i++) {
                    p.send(i);
                }
            });
            Weft.run(s, () -> {
                writer.start(); // the carrier waits in its selector meanwhile
                for (int i = 0; i < 100; i++) {
                    assertEquals(i, p.bytes.in().read());
                    assertSame(p.lastReader, Thread.currentThread());
                }
                reader.set(Thread.currentThread());
            });
            assertTrue(reader.get() instanceof Carrier);
            assertEquals(s.name() + "-0", reader.get().getName());
        }
    }

    /** A plain thread's wake-ups reach carriers that wait in their pollers, many times over (a lost one hangs). */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void wakeUpsFromPlainThreadsReachCarriersWaitingInTheirPollers(int workers) throws Exception {
        try (Scheduler s = Scheduler.create(workers)) {
            plug(s);
            One2OneChannel<Integer> c = Channel.one2one();
            int rounds = 20_000;
            Thread writer = new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    c.out().write(i);
                }
            });
            writer.start();
            long[] sum = new long[1];
            Weft.run(s, () -> {
                for (int i = 0; i < rounds; i++) {
                    sum[0] += c.in().read();
                }
            });
            writer.join();
            assertEquals((long) rounds * (rounds - 1) / 2, sum[0]);
        }
    }

    /**
     * A fiber has its carrier's poller run a task at its next poll, a task that makes another fiber runnable;
     * the carrier, with nothing else to run, runs it as it begins to wait, after its last look at its queues: the
     * fiber woken then must end that wait (on one carrier, every round would hang otherwise).
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void aFiberMadeRunnableByThePollerAsItsCarrierBeginsToWaitRuns(int workers) {
        try (Scheduler s = Scheduler.create(workers)) {
            plug(s);
            One2OneChannel<Integer> c = Channel.one2one(1);
            int rounds = 5_000;
            Weft.run(s, () -> {
                for (int i = 0; i < rounds; i++) {
                    int sent = i;
                    Weft.spawn(() -> {
                        PipePoller mine = (PipePoller) WorkerPool.pollerHere();
                        mine.tasks.add(() -> Extensions.offer(c.out(), sent));
                    });
                    assertEquals(sent, c.in().read());
                }
            });
        }
    }

    /**
     * A fiber computes on one carrier without pausing; the other carrier, idle, polls the busy one's poller for it
     * ({@link Poller#pollAside}), so the bytes sent to it are read while the slice still runs.
     */
    @Test
    void anIdleCarrierPollsForACarrierHeldInALongSlice() {
        try (Scheduler s = Scheduler.create(2)) {
            plug(s);
            AtomicReference<PipePoller> busy = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                while (busy.get() == null) {
                    Thread.onSpinWait();
                }
                busy.get().send(42);
            });
            writer.start();
            AtomicReference<Thread> computing = new AtomicReference<>();
            Weft.run(s, () -> {
                computing.set(Thread.currentThread());
                PipePoller mine = (PipePoller) WorkerPool.pollerHere();
                busy.set(mine);
                long giveUp = System.nanoTime() + 20_000_000_000L;
                while (mine.lastReader == null && System.nanoTime() - giveUp < 0) {
                    Thread.onSpinWait(); // a slice that never pauses
                }
            });
            Thread helper = busy.get().lastReader;
            assertNotNull(helper, "nobody read the busy carrier's pipe while its slice ran");
            assertNotEquals(computing.get(), helper);
            assertTrue(helper instanceof Carrier);
            assertEquals(42, Extensions.poll(busy.get().bytes.in()));
        }
    }

    /**
     * As above, but the other carrier never idles: two fibers yield to each other on it. At its own polls it
     * polls for the carrier that has stalled (neither polled nor begun a slice), as it would for one that the
     * machine's other processes keep from running; an idle carrier's look for work would never come.
     */
    @RepeatedTest(5)
    void aBusyCarrierPollsForAStalledCarrier() {
        try (Scheduler s = Scheduler.create(2)) {
            plug(s);
            AtomicReference<PipePoller> stuck = new AtomicReference<>();
            AtomicReference<Thread> computing = new AtomicReference<>();
            AtomicInteger[] turnsElsewhere = {new AtomicInteger(), new AtomicInteger()};
            AtomicBoolean done = new AtomicBoolean();
            long giveUp = System.nanoTime() + 10_000_000_000L;
            Thread writer = new Thread(() -> {
                // Both yielders run on the other carrier (the computing one cannot take them back): it is busy.
                while (turnsElsewhere[0].get() < 1000 || turnsElsewhere[1].get() < 1000) {
                    if (System.nanoTime() - giveUp > 0) {
                        return; // the yielders never both moved: the assertions below say so
                    }
                    Thread.onSpinWait();
                }
                stuck.get().send(42);
            });
            writer.setDaemon(true);
            writer.start();
            AtomicReference<Thread> yieldersCarrier = new AtomicReference<>();
            Weft.run(s, () -> {
                computing.set(Thread.currentThread());
                PipePoller mine = (PipePoller) WorkerPool.pollerHere();
                stuck.set(mine);
                // The other carrier, idle, takes the first yielder; the second, spawned there, starts there.
                Weft.spawn(() -> {
                    Weft.spawn(() -> yieldUntil(done, computing.get(), turnsElsewhere[1], yieldersCarrier));
                    yieldUntil(done, computing.get(), turnsElsewhere[0], yieldersCarrier);
                });
                while (mine.lastReader == null && System.nanoTime() - giveUp < 0) {
                    Thread.onSpinWait(); // a slice that never pauses
                }
                done.set(true);
            });
            Thread helper = stuck.get().lastReader;
            assertNotNull(helper, "the busy carrier did not read the pipe of the carrier held in its slice; turns "
                    + turnsElsewhere[0] + " " + turnsElsewhere[1] + " writer " + writer.getState());
            assertSame(yieldersCarrier.get(), helper);
            assertNotEquals(computing.get(), helper);
            assertEquals(42, Extensions.poll(stuck.get().bytes.in()));
        }
    }

    /** Yields until {@code done}, counting the turns it runs on another thread than {@code computing}. */
    @Pausable
    private static void yieldUntil(AtomicBoolean done, Thread computing, AtomicInteger turnsElsewhere,
            AtomicReference<Thread> where) {
        while (!done.get()) {
            if (Thread.currentThread() != computing) {
                where.set(Thread.currentThread());
                turnsElsewhere.incrementAndGet();
            }
            Fiber.yield();
        }
    }
}
