package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@link FiberLocal}: a value per fiber, inherited at spawn, never seen by the next fiber on a carrier. */
class FiberLocalTest {
    private static final FiberLocal<String> CONTEXT = new FiberLocal<>();
    private static final FiberLocal<StringBuilder> LOG = FiberLocal.withInitial(StringBuilder::new);

    @Test
    @Timeout(60)
    void aValueSetInOneFiberIsNotSeenByTheNextOnTheSameCarrier() {
        try (Scheduler s = Scheduler.singleThreaded()) { // one carrier: both fibers run on it, in turn
            Weft.run(s, () -> {
                One2OneChannel<String> seen = Channel.one2one();
                Fiber first = Weft.spawn(() -> CONTEXT.set("first's request"));
                first.join();
                Weft.spawn(() -> seen.out().write(String.valueOf(CONTEXT.get())));
                assertEquals("null", seen.in().read());
                assertNull(CONTEXT.get(), "main never set it");
            });
        }
    }

    @Test
    @Timeout(60)
    void spawnedFibersInheritTheSpawnersValuesThenKeepTheirOwn() {
        Schedulers.onOneAndTwoWorkers(20, s -> Weft.run(s, () -> {
            CONTEXT.set("parent");
            One2OneChannel<String> c = Channel.one2one();
            Fiber child = Weft.spawn(() -> {
                c.out().write(CONTEXT.get());
                CONTEXT.set("child");
                for (int i = 0; i < 10; i++) {
                    Fiber.yield(); // may move to another carrier: the value moves with it
                }
                c.out().write(CONTEXT.get());
                Weft.spawn(() -> c.out().write(CONTEXT.get())).join();
            });
            assertEquals("parent", c.in().read());
            assertEquals("child", c.in().read());
            assertEquals("child", c.in().read(), "the grandchild inherits from the child");
            child.join();
            assertEquals("parent", CONTEXT.get(), "the child's change is its own");
            CONTEXT.remove();
            assertNull(CONTEXT.get());
        }));
    }

    @Test
    @Timeout(60)
    void fibersWithValuesStayInTheirRunAndAreCancelledWithIt() {
        // A fiber keeps its run and its values in one side object: the run must still count it, wait for it and
        // cancel it. The channel is held by this thread, so only the run's cancellation can end the readers.
        Any2AnyChannel<String> never = Channel.any2any(); // two readers wait on it at once
        Schedulers.onOneAndTwoWorkers(10, s -> {
            AtomicInteger cancelled = new AtomicInteger();
            IllegalStateException boom = new IllegalStateException("main fails");
            IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> Weft.run(s, () -> {
                CONTEXT.set("main");
                Any2OneChannel<String> started = Channel.any2one(); // both children write to it
                CSProcess blockedReader = () -> {
                    try {
                        never.in().read();
                    } catch (CancelledException e) {
                        cancelled.incrementAndGet();
                        throw e;
                    }
                };
                Weft.spawn(() -> { // inherits main's value: has its side object from the start
                    started.out().write(CONTEXT.get());
                    blockedReader.run();
                });
                CONTEXT.remove();
                Weft.spawn(() -> { // none inherited: gets its side object as it sets one
                    CONTEXT.set("own");
                    started.out().write(CONTEXT.get());
                    blockedReader.run();
                });
                Set<String> values = new HashSet<>();
                values.add(started.in().read());
                values.add(started.in().read()); // on two workers, in either order
                assertEquals(Set.of("main", "own"), values);
                throw boom;
            }));
            assertSame(boom, thrown);
            assertEquals(2, cancelled.get(), "both readers were cancelled, and had ended when the run returned");
        });
    }

    @Test
    @Timeout(60)
    void initialValuesAreMadeOncePerFiber() {
        Schedulers.onOneAndTwoWorkers(20, s -> Weft.run(s, () -> {
            LOG.get().append("a");
            LOG.get().append("b");
            assertEquals("ab", LOG.get().toString());
            Task<String> other = Weft.async(() -> LOG.get().toString());
            assertEquals("ab", other.join(), "inherited: the same builder");
            LOG.remove();
            Task<String> fresh = Weft.async(() -> LOG.get().append("c").toString());
            assertEquals("c", fresh.join());
            assertEquals("", LOG.get().toString());
        }));
    }

    @Test
    @Timeout(60)
    void aPlainThreadHasItsOwnValueAndPassesItToWhatItSpawns() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            CONTEXT.set("main thread");
            try {
                AtomicReference<String> inFiber = new AtomicReference<>();
                Weft.spawn(s, () -> inFiber.set(CONTEXT.get())).join();
                assertEquals("main thread", inFiber.get());
                AtomicReference<String> otherThread = new AtomicReference<>("unset");
                Thread t = new Thread(() -> otherThread.set(CONTEXT.get()));
                t.start();
                t.join();
                assertNull(otherThread.get());
            } finally {
                CONTEXT.remove();
            }
        }
    }
}
