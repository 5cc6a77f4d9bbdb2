package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.internal.FiberProbe;
import java.lang.ref.WeakReference;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class AwaitTest {
    /** Waits until every fiber of {@code s} is parked (without keeping one reachable afterwards). */
    private static void awaitAllParked(Scheduler s, int n) {
        while (!allParked(s, n)) {
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted (timed out?) while waiting for fibers to park");
            }
            Thread.yield();
        }
    }

    private static boolean allParked(Scheduler s, int n) {
        var live = s.pool.liveSnapshot();
        return live.size() == n && live.stream().allMatch(c -> FiberProbe.isParked(((Fiber) c)));
    }

    @Test
    @Timeout(30)
    void aFiberPausesUntilAnotherThreadCompletesTheFuture() {
        Schedulers.onOneAndTwoWorkers(50, s -> {
            CompletableFuture<String> f = new CompletableFuture<>();
            AtomicInteger ticks = new AtomicInteger();
            AtomicReference<String> got = new AtomicReference<>();
            Thread completer = new Thread(() -> {
                awaitAllParked(s, 2); // main in the par, the branch in await; the other branch has ended
                f.complete("done");
            });
            completer.start();
            Weft.run(s, () -> Parallel.run(
                    () -> got.set(Weft.await(f)),
                    () -> {
                        for (int i = 0; i < 5; i++) { // the carrier runs on while the other fiber waits
                            Fiber.yield();
                            ticks.incrementAndGet();
                        }
                    }));
            assertEquals("done", got.get());
            assertEquals(5, ticks.get());
        });
    }

    @Test
    @Timeout(10)
    void aCompletedStageReturnsAtOnce() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            AtomicReference<Integer> got = new AtomicReference<>();
            Weft.run(s, () -> got.set(Weft.await(CompletableFuture.completedFuture(3))));
            assertEquals(3, got.get());
        }
        assertEquals(4, Weft.await(CompletableFuture.completedStage(4)));
    }

    @Pausable
    private static Throwable failureOf(CompletionStage<?> stage) {
        try {
            Weft.await(stage);
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("Weft.await returned");
    }

    @Test
    @Timeout(30)
    void failuresAreThrownAsJoinThrowsThem() {
        Schedulers.onOneAndTwoWorkers(10, s -> {
            IllegalStateException boom = new IllegalStateException("boom");
            CompletableFuture<Integer> failed = new CompletableFuture<>();
            CompletionStage<Integer> dependent = failed.thenApply(x -> x + 1);
            CompletableFuture<Integer> cancelled = new CompletableFuture<>();
            AtomicReference<Throwable> direct = new AtomicReference<>();
            AtomicReference<Throwable> throughStage = new AtomicReference<>();
            AtomicReference<Throwable> cancel = new AtomicReference<>();
            Thread completer = new Thread(() -> {
                awaitAllParked(s, 1);
                failed.completeExceptionally(boom);
            });
            completer.start();
            Weft.run(s, () -> {
                direct.set(failureOf(failed));
                throughStage.set(failureOf(dependent));
                cancelled.cancel(false);
                cancel.set(failureOf(cancelled));
            });
            assertInstanceOf(CompletionException.class, direct.get());
            assertInstanceOf(CompletionException.class, throughStage.get());
            assertSame(boom, direct.get().getCause());
            assertSame(boom, throughStage.get().getCause());
            assertInstanceOf(CancellationException.class, cancel.get());
        });
    }

    @Test
    @Timeout(30)
    void aCancelledFiberThrowsCancelledAndCancelsTheFuture() {
        Schedulers.onOneAndTwoWorkers(50, s -> {
            CompletableFuture<Integer> f = new CompletableFuture<>();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Weft.run(s, () -> {
                Fiber waiter = Weft.spawn(() -> {
                    try {
                        Weft.await(f);
                    } catch (CancelledException e) {
                        thrown.set(e);
                        throw e;
                    }
                });
                Schedulers.awaitParked(waiter);
                waiter.cancel();
                try {
                    waiter.join();
                } catch (CancelledException expected) {
                    return;
                }
                throw new AssertionError("the join of a cancelled fiber returned");
            });
            assertInstanceOf(CancelledException.class, thrown.get());
            assertTrue(f.isCancelled());
        });
    }

    @Test
    @Timeout(30)
    void aPlainThreadBlocksAndAnInterruptCancels() throws Exception {
        CompletableFuture<Integer> f = new CompletableFuture<>();
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread t = new Thread(() -> outcome.set(Weft.await(f)));
        t.start();
        Schedulers.awaitBlocked(t);
        f.complete(9);
        t.join();
        assertEquals(9, outcome.get());

        CompletableFuture<Integer> never = new CompletableFuture<>();
        AtomicReference<Boolean> stillInterrupted = new AtomicReference<>();
        Thread u = new Thread(() -> {
            try {
                Weft.await(never);
            } catch (CancelledException e) {
                outcome.set(e);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }
        });
        u.start();
        Schedulers.awaitBlocked(u);
        u.interrupt();
        u.join();
        assertInstanceOf(CancelledException.class, outcome.get());
        assertTrue(stillInterrupted.get());
        assertTrue(never.isCancelled());
    }

    /**
     * Completed by a fiber on the carrier, the future queues its waiter on that carrier's own run queue (no
     * hand-off through another thread): on one worker it runs as soon as the completer yields, ahead of it.
     * (On several workers an idle one may steal it afterwards, as it may any queued fiber.)
     */
    @Test
    @Timeout(30)
    void aFutureCompletedOnTheCarrierQueuesTheFiberThere() {
        for (int i = 0; i < 20; i++) {
            try (Scheduler s = Scheduler.singleThreaded()) {
                CompletableFuture<Integer> f = new CompletableFuture<>();
                java.util.List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
                AtomicReference<Thread> completedOn = new AtomicReference<>();
                AtomicReference<Thread> resumedOn = new AtomicReference<>();
                Weft.run(s, () -> {
                    Fiber waiter = Weft.spawn(() -> {
                        Weft.await(f);
                        resumedOn.set(Thread.currentThread());
                        order.add("waiter");
                    });
                    Schedulers.awaitParked(waiter);
                    completedOn.set(Thread.currentThread());
                    f.complete(1);
                    Fiber.yield();
                    order.add("completer");
                });
                assertSame(completedOn.get(), resumedOn.get());
                assertEquals(java.util.List.of("waiter", "completer"), order);
            }
        }
    }

    /**
     * The future lives only in the waiting fiber, yet the wait is not a deadlock: a deadlocked run beside it is
     * reported (the detector ran while the pool was at rest), the waiting run goes on and ends once completed.
     */
    @Test
    @Timeout(60)
    void aFiberAwaitingIsNeverADeadlock() throws Exception {
        for (int workers = 1; workers <= 2; workers++) {
            try (Scheduler s = Scheduler.create(workers)) {
                AtomicReference<WeakReference<CompletableFuture<Integer>>> future = new AtomicReference<>();
                AtomicReference<Object> outcome = new AtomicReference<>();
                Thread runner = new Thread(() -> {
                    try {
                        Weft.run(s, () -> {
                            CompletableFuture<Integer> f = new CompletableFuture<>();
                            future.set(new WeakReference<>(f));
                            outcome.set(Weft.await(f));
                        });
                    } catch (Throwable t) {
                        outcome.set(t);
                    }
                });
                runner.start();
                awaitAllParked(s, 1);
                assertThrows(DeadlockException.class, () -> Weft.run(s, () -> Channel.one2one().in().read()));
                assertTrue(runner.isAlive());
                assertNull(outcome.get());
                CompletableFuture<Integer> f = future.get().get();
                assertFalse(f == null, "the waiting fiber keeps its future");
                f.complete(5);
                runner.join();
                assertEquals(5, outcome.get());
            }
        }
    }
}
