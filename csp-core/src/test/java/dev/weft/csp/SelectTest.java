package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link Select}: cases with handlers, committed writes, timeouts, defaults, preconditions and fairness. */
class SelectTest {
    private static final int ITERATIONS = Integer.getInteger("weft.selectTest.iterations", 50);

    @Test
    @Timeout(60)
    void aReadCaseGivesItsValueToItsHandler() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            One2OneChannel<String> a = Channel.one2one();
            One2OneChannel<String> b = Channel.one2one();
            Weft.spawn(() -> b.out().write("from b"));
            AtomicReference<String> got = new AtomicReference<>();
            int chosen = new Select()
                    .read(a.in(), v -> fail("nothing was written to a"))
                    .read(b.in(), v -> got.set(v))
                    .run();
            assertEquals(1, chosen);
            assertEquals("from b", got.get());
        }));
    }

    @Test
    @Timeout(60)
    void aWriteCaseDeliversBeforeItsHandlerRunsEvenIfTheHandlerThrows() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> c = Channel.one2one();
            AtomicReference<Integer> read = new AtomicReference<>();
            Fiber reader = Weft.spawn(() -> {
                Alternative alt = new Alternative(c.in(), Guards.timeout(Duration.ofMinutes(5)));
                assertEquals(0, alt.select()); // commits to reading c
                read.set(c.in().read());
            });
            try {
                new Select().write(c.out(), 42, () -> {
                    throw new IllegalStateException("the handler failed");
                }).run();
                fail("the handler's exception was lost");
            } catch (IllegalStateException expected) {
                assertEquals("the handler failed", expected.getMessage());
            }
            reader.join();
            assertEquals(42, read.get());
        }));
    }

    @Test
    @Timeout(60)
    void timeoutDefaultAndPreconditions() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> c = Channel.one2one(1);
            AtomicBoolean timedOut = new AtomicBoolean();
            assertEquals(1, new Select()
                    .read(c.in(), v -> fail("empty"))
                    .timeout(Duration.ofMillis(1), () -> timedOut.set(true))
                    .run());
            assertTrue(timedOut.get());

            AtomicBoolean defaulted = new AtomicBoolean();
            assertEquals(1, new Select().read(c.in(), v -> fail("empty")).orElse(() -> defaulted.set(true)).run());
            assertTrue(defaulted.get());

            c.out().write(5);
            AtomicInteger got = new AtomicInteger();
            assertEquals(0, new Select().read(c.in(), v -> got.set(v)).orElse(() -> fail("a value waits")).run());
            assertEquals(5, got.get());

            c.out().write(6);
            assertEquals(1, new Select()
                    .read(c.in(), v -> fail("disabled")).onlyIf(false)
                    .orElse(() -> { })
                    .run(), "a disabled case is not chosen even when ready");
            try {
                new Select().read(c.in(), v -> { }).onlyIf(false).run();
                fail("a select with every case disabled and no default waited");
            } catch (IllegalStateException expected) {
                // nothing to wait for
            }
            assertEquals(6, c.in().read());
        }));
    }

    @Test
    @Timeout(60)
    void aPoisonedOrClosedCaseThrowsFromRun() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> p = Channel.one2one();
            p.in().poison();
            try {
                new Select().read(p.in(), v -> fail("poisoned")).run();
                fail("a poisoned case did not throw");
            } catch (PoisonException expected) {
                // ready, and its read throws
            }
            One2OneChannel<Integer> c = Channel.one2one();
            c.out().close();
            try {
                new Select().write(c.out(), 1).run();
                fail("a closed case did not throw");
            } catch (ChannelClosedException expected) {
                // ready, and its write throws
            }
        }));
    }

    /** A fresh select per iteration, on one channel listed twice: both cases are chosen about as often. */
    @Test
    @Timeout(60)
    void aFreshSelectPerIterationIsFair() {
        Schedulers.onOneAndTwoWorkers(1, s -> Weft.run(s, () -> {
            One2OneChannel<Integer> c = Channel.one2one(1);
            int[] chosen = new int[2];
            for (int i = 0; i < 10_000; i++) {
                c.out().write(i);
                chosen[new Select().read(c.in(), v -> { }).read(c.in(), v -> { }).run()]++;
            }
            assertTrue(chosen[0] > 4000 && chosen[1] > 4000, chosen[0] + " / " + chosen[1]);
        }));
    }

    /**
     * Writers in selects are cancelled at random moments while a reader commits to them with an alternative:
     * the reader is never left waiting for a write that a cancellation refused, and it reads exactly the values
     * whose select returned.
     */
    @Test
    @Timeout(120)
    void cancelledWritersNeverStrandACommittedReader() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            int writers = 3;
            Any2OneChannel<int[]> c = Channel.any2one();
            AtomicInteger[] written = new AtomicInteger[writers];
            List<Fiber> fibers = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int me = w;
                written[w] = new AtomicInteger();
                fibers.add(Weft.spawn(() -> {
                    for (int i = 0; ; i++) {
                        new Select().write(c.out(), new int[] {me, i}).run();
                        written[me].incrementAndGet();
                    }
                }));
            }
            int[] read = new int[writers];
            One2OneChannel<Boolean> stop = Channel.one2one();
            Fiber reader = Weft.spawn(() -> {
                Alternative alt = new Alternative(stop.in(), c.in());
                while (alt.priSelect() == 1) {
                    int[] v = c.in().read();
                    assertEquals(read[v[0]]++, v[1], "writer " + v[0] + "'s order");
                }
            });
            cancelEachAfterAWhile(fibers);
            stop.out().close(); // the reader's stop guard becomes ready
            reader.join();
            for (int w = 0; w < writers; w++) {
                assertEquals(written[w].get(), read[w], "writer " + w);
            }
        }));
    }

    /**
     * The mirror: readers in selects are cancelled at random moments while a writer commits to them with an
     * alternative. A select whose read a writer's check claimed waits for that writer even where another party
     * took what its choice saw (the writer counts on it), so the writer is never left waiting, and every value
     * whose write returned is read exactly once.
     */
    @Test
    @Timeout(120)
    void cancelledReadersNeverStrandACommittedWriter() {
        Schedulers.onOneAndTwoWorkers(ITERATIONS, s -> Weft.run(s, () -> {
            One2AnyChannel<Integer> c = Channel.one2any();
            AtomicInteger read = new AtomicInteger();
            AtomicInteger sum = new AtomicInteger();
            List<Fiber> fibers = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                fibers.add(Weft.spawn(() -> {
                    while (true) {
                        new Select().read(c.in(), v -> {
                            read.incrementAndGet();
                            sum.addAndGet(v);
                        }).run();
                    }
                }));
            }
            One2OneChannel<Boolean> stop = Channel.one2one();
            int[] written = new int[2]; // count, sum
            Fiber writer = Weft.spawn(() -> {
                Alternative alt = new Alternative(stop.in(), c.out());
                for (int i = 1; alt.priSelect() == 1; i++) {
                    c.out().write(i);
                    written[0]++;
                    written[1] += i;
                }
            });
            cancelEachAfterAWhile(fibers);
            stop.out().close(); // the writer's stop guard becomes ready
            writer.join();
            assertEquals(written[0], read.get(), "values read");
            assertEquals(written[1], sum.get(), "the values' sum");
        }));
    }

    /** Cancels each of {@code fibers} after a few yields (a number of its own), and waits until it ends. */
    @Pausable
    private static void cancelEachAfterAWhile(List<Fiber> fibers) {
        for (Fiber f : fibers) {
            for (int k = 0; k < 1 + f.hashCode() % 7; k++) {
                Fiber.yield();
            }
            f.cancel();
            try {
                f.join();
            } catch (CancelledException expected) {
                // stopped at a pause
            }
        }
    }

    @Test
    @Timeout(60)
    void worksFromAPlainThread() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            One2OneChannel<Integer> c = Channel.one2one();
            Fiber f = Weft.spawn(s, () -> c.out().write(9));
            AtomicInteger got = new AtomicInteger();
            assertEquals(0, new Select().read(c.in(), v -> got.set(v)).timeout(Duration.ofMinutes(1), () -> { }).run());
            assertEquals(9, got.get());
            f.join();
        }
    }

    @Test
    void badArgumentsSayWhatIsWrong() {
        One2OneChannel<Integer> c = Channel.one2one();
        Select s = new Select();
        expect(NullPointerException.class, () -> s.read(null, v -> { }));
        expect(NullPointerException.class, () -> s.write(c.out(), null));
        expect(IllegalStateException.class, () -> s.onlyIf(true));
        s.orElse(() -> { });
        expect(IllegalStateException.class, () -> s.orElse(() -> { }));
    }

    private static void expect(Class<? extends Throwable> type, Runnable r) {
        try {
            r.run();
        } catch (Throwable t) {
            assertTrue(type.isInstance(t), "expected " + type.getSimpleName() + ", got " + t);
            return;
        }
        fail("expected " + type.getSimpleName());
    }
}
