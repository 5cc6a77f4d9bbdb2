package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The README's examples, compiled and run: if this breaks, the README is wrong. */
class ReadmeExamplesTest {

    @Test
    @Timeout(10)
    void channelsOfEveryKind() {
        One2OneChannel<String> a = Channel.one2one();
        Any2OneChannel<Integer> fanIn = Channel.any2one();
        One2AnyChannel<Integer> work = Channel.one2any(16);
        Any2AnyChannel<Long> pool = Channel.any2any(ChannelBuffer.overwritingOldest(4));
        Any2OneChannel<String> log = Channel.any2one(ChannelBuffer.unbounded());
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                Weft.spawn(() -> a.out().write("hi"));
                Weft.spawn(() -> fanIn.out().write(1));
                work.out().write(2);
                pool.out().write(3L);
                log.out().write("x");
                assertEquals("hi", a.in().read());
                assertEquals(1, fanIn.in().read());
                assertEquals(2, work.in().read());
                assertEquals(3L, pool.in().read());
                assertEquals("x", log.in().read());
            });
        }
    }

    @Pausable
    static void successor(ChannelInput<Integer> in, ChannelOutput<Integer> out) {
        try {
            for (;;) out.write(in.read() + 1);
        } catch (PoisonException e) {
            in.poison();
            out.poison();
        }
    }

    @Test
    @Timeout(10)
    void poisonEndsANetwork() {
        One2OneChannel<Integer> in = Channel.one2one();
        One2OneChannel<Integer> out = Channel.one2one();
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                Fiber f = Weft.spawn(() -> successor(in.in(), out.out()));
                in.out().write(1);
                assertEquals(2, out.in().read());
                in.out().poison();
                f.join();
            });
        }
    }

    @Test
    @Timeout(10)
    void alternation() {
        One2OneChannel<Integer> requests = Channel.one2one();
        One2OneChannel<Integer> results = Channel.one2one();
        AtomicInteger handled = new AtomicInteger();
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                Weft.spawn(() -> requests.out().write(41));
                int next = 0;
                Alternative alt = new Alternative(requests.in(), results.out(), Guards.timeout(Duration.ofMillis(50)));
                switch (alt.fairSelect()) {
                    case 0 -> handled.addAndGet(requests.in().read());
                    case 1 -> results.out().write(next);
                    default -> handled.set(-1);
                }
                int ready = alt.selectNow();
                assertEquals(-1, ready);
            });
        }
        assertEquals(41, handled.get());
    }

    @Test
    @Timeout(20)
    void barrier() {
        int[] moves = new int[64];
        try (Scheduler s = Scheduler.create(2)) {
            Weft.run(s, () -> {
                Barrier step = new Barrier(64);
                Parallel.forRange(0, 64, i -> {
                    for (int t = 0; t < 1000; t++) {
                        moves[i]++;
                        step.sync();
                    }
                });
            });
        }
        for (int m : moves) {
            assertEquals(1000, m);
        }
    }

    @Test
    @Timeout(10)
    void connection() {
        // As in the README: a server fiber on the default scheduler, a client on this plain thread.
        Any2OneConnection<String, Integer> lengths = Connection.any2one();
        Weft.spawn(() -> {
            for (;;) {
                String q = lengths.server().accept();
                lengths.server().reply(q.length());
            }
        });
        int n = lengths.client().request("hello");
        assertEquals(5, n);
    }

    private static final AtomicInteger HANDLED = new AtomicInteger();
    private static final AtomicInteger CLOSED = new AtomicInteger();

    private static void handle(int request) {
        HANDLED.addAndGet(request);
    }

    private static void closeResources() {
        CLOSED.incrementAndGet();
    }

    @Test
    @Timeout(10)
    void cancellingAServer() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                One2OneChannel<Integer> requests = Channel.one2one();
                Fiber server = Weft.spawn(() -> {
                    try {
                        for (;;) handle(requests.in().read());
                    } finally {
                        closeResources();                  // runs when the fiber is cancelled
                    }
                });
                requests.out().write(5);
                server.cancel();                           // its read throws CancelledException
                try {
                    server.join();
                } catch (CancelledException expected) {
                    // the server ended by its cancellation
                }
            });
        }
        assertEquals(5, HANDLED.get());
        assertEquals(1, CLOSED.get());
    }

    @Test
    @Timeout(10)
    void closeAndDrain() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                java.util.List<Integer> got = new java.util.ArrayList<>();
                Any2OneChannel<Integer> results = Channel.any2one(8);
                Weft.spawn(() -> {
                    for (int i = 0; i < 3; i++) results.out().write(i * i);
                    results.out().close();
                });
                results.in().forEach(v -> got.add(v));
                assertEquals(java.util.List.of(0, 1, 4), got);
            });
        }
    }

    @Test
    @Timeout(10)
    void selectBuilder() {
        One2OneChannel<String> requests = Channel.one2one(1);
        One2OneChannel<String> replies = Channel.one2one();
        String next = "ping";
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                int chosen = new Select()
                        .read(replies.in(), r -> System.out.println("reply: " + r))
                        .write(requests.out(), next).onlyIf(next != null)   // a case for a value, when there is one
                        .timeout(Duration.ofSeconds(1), () -> System.out.println("no reply"))
                        .run();                                             // the number of the case chosen: 1 here
                assertEquals(1, chosen);
                assertEquals("ping", requests.in().read());
            });
        }
    }

    private static final FiberLocal<String> REQUEST = new FiberLocal<>();

    @Pausable
    static int sum(int[] values) {
        int s = 0;
        for (int v : values) {
            s += v;
            Fiber.yield();
        }
        return s;
    }

    @Test
    @Timeout(10)
    void resultsTimedJoinsAndFiberLocals() {
        int[] lower = {1, 2, 3};
        int[] upper = {4, 5, 6};
        try (Scheduler s = Scheduler.create(2)) {
            Weft.run(s, () -> {
                Task<Integer> left = Weft.async(() -> sum(lower));
                Task<Integer> right = Weft.async(() -> sum(upper));
                int total = left.join() + right.join();
                assertEquals(21, total);
                boolean ended = Weft.spawn("cleaner", () -> Fiber.yield()).join(Duration.ofSeconds(5));
                assertEquals(true, ended);

                REQUEST.set("req-42");
                AtomicReference<String> seen = new AtomicReference<>();
                Weft.spawn(() -> seen.set(REQUEST.get())).join();
                assertEquals("req-42", seen.get());
            });
        }
    }

    private final Object lock = new Object();
    private int count;

    @Pausable
    int pauseInCatchAroundSynchronized(ChannelInput<Integer> in, boolean fail) {
        try {
            synchronized (lock) {
                count++;
                if (fail) {
                    throw new IllegalStateException();
                }
            }
        } catch (IllegalStateException e) {
            return in.read(); // fine: the monitor is released before the catch runs
        }
        return 0;
    }

    @Test
    @Timeout(10)
    void aCatchAroundASynchronizedBlockMayPause() {
        One2OneChannel<Integer> c = Channel.one2one();
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> {
                Weft.spawn(() -> c.out().write(7));
                assertEquals(0, pauseInCatchAroundSynchronized(c.in(), false));
                assertEquals(7, pauseInCatchAroundSynchronized(c.in(), true));
                assertEquals(2, count);
            });
        }
    }
}
