package dev.weft.csp.test;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.Alternative;
import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.Fiber;
import dev.weft.csp.Guards;
import dev.weft.csp.One2AnyChannel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.List;

/**
 * Classic concurrency mistakes, each hidden behind an interleaving that the ordinary schedulers rarely or never
 * produce: each process throws (or deadlocks) only when the bug shows. The first is docs/testing.md's example. {@link BugsFoundTest} checks that
 * exploration finds every one; {@link RunsToFind} measures how many runs that takes.
 */
final class Bugs {
    /** A bug: its name and the process that shows it. */
    record Bug(String name, CSProcess process) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final List<Bug> ALL = List.of(
            new Bug("lost update", Bugs::lostUpdate),
            new Bug("reader goes first", Bugs::readerGoesFirst),
            new Bug("dining philosophers", Bugs::diningPhilosophers),
            new Bug("missed poison", Bugs::missedPoison),
            new Bug("late reply", Bugs::lateReply));

    private Bugs() {
    }

    /**
     * Two workers increment a shared counter, reading it before a pausable call (an audit message) and writing
     * it after: an update is lost when the other worker runs in between. The audit channel's buffer is large,
     * so the write pauses only if something preempts the worker there.
     */
    @Pausable
    static void lostUpdate() {
        int[] counter = {0};
        Any2OneChannel<Integer> audit = Channel.any2one(16);
        CSProcess worker = () -> {
            for (int k = 0; k < 3; k++) {
                int v = counter[0];
                audit.out().write(v);                              // a scheduling point
                counter[0] = v + 1;                                // lost if the other worker ran meanwhile
            }
        };
        Parallel.run(worker, worker);
        assertEquals(6, counter[0]);
    }

    /**
     * A client writes a request and then a log line to one buffered channel that a server and a logger both
     * read: if the logger reads first it takes the request, the server takes the log line, and the client
     * waits for a reply for ever. Deadlocks only when the logger is the first reader.
     */
    @Pausable
    static void readerGoesFirst() {
        One2AnyChannel<String> requests = Channel.one2any(1);
        One2OneChannel<String> replies = Channel.one2one();
        Fiber server = Weft.spawn(() -> {
            String r = requests.in().read();
            replies.out().write("served " + r);
        });
        Fiber logger = Weft.spawn(() -> requests.in().read());
        requests.out().write("request");
        replies.in().read();
        requests.out().write("log: served");
        server.join();
        logger.join();
    }

    /**
     * Five philosophers, each taking the left fork and then the right: when every one holds a left fork, none
     * can take a right one. Forks are one-slot channels holding a token.
     */
    @Pausable
    static void diningPhilosophers() {
        int n = 5;
        Any2AnyChannel<String>[] forks = forks(n);
        CSProcess[] philosophers = new CSProcess[n];
        for (int i = 0; i < n; i++) {
            Any2AnyChannel<String> left = forks[i];
            Any2AnyChannel<String> right = forks[(i + 1) % n];
            philosophers[i] = () -> {
                for (int meal = 0; meal < 2; meal++) {
                    String l = left.in().read();
                    String r = right.in().read();
                    right.out().write(r);
                    left.out().write(l);
                }
            };
        }
        Parallel.run(philosophers);
    }

    @Pausable
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Any2AnyChannel<String>[] forks(int n) {
        Any2AnyChannel<String>[] forks = new Any2AnyChannel[n];
        for (int i = 0; i < n; i++) {
            forks[i] = Channel.any2any(1);
            forks[i].out().write("fork " + i);
        }
        return forks;
    }

    /**
     * A producer fetches three values from a server and passes them on through a buffered channel, then poisons
     * it to say that it is done; but poison discards what the buffer still holds. The consumer misses a value
     * if the producer gets a value ahead of it: the poison should have been a close.
     */
    @Pausable
    static void missedPoison() {
        One2OneChannel<Integer> requests = Channel.one2one();
        One2OneChannel<Integer> replies = Channel.one2one();
        One2OneChannel<Integer> values = Channel.one2one(4);
        Fiber server = Weft.spawn(() -> {
            for (int i = 0; i < 3; i++) {
                replies.out().write(requests.in().read() * 10);
            }
        });
        Weft.spawn(() -> {
            for (int i = 1; i <= 3; i++) {
                requests.out().write(i);
                values.out().write(replies.in().read());
            }
            values.out().poison(); // "no more values": discards those not read yet
        });
        int got = 0;
        try {
            for (;;) {
                values.in().read();
                got++;
            }
        } catch (PoisonException done) {
            check(got == 3, "missed poison: the consumer got " + got + " of 3 values");
        }
        server.join();
    }

    /**
     * A server handles requests one at a time (20 ms each); client A gives up after 30 ms, B after a second.
     * A's reply is late, and A fails, only when B's request is served first.
     */
    @Pausable
    static void lateReply() {
        Any2OneChannel<One2OneChannel<String>> requests = Channel.any2one();
        Fiber server = Weft.spawn(() -> {
            for (int i = 0; i < 2; i++) {
                One2OneChannel<String> reply = requests.in().read();
                Timer.sleep(Duration.ofMillis(20));
                reply.out().write("done");
            }
        });
        Fiber a = Weft.spawn(() -> call(requests, Duration.ofMillis(30), "A"));
        Fiber b = Weft.spawn(() -> call(requests, Duration.ofSeconds(1), "B"));
        a.join();
        b.join();
        server.join();
    }

    @Pausable
    private static void call(Any2OneChannel<One2OneChannel<String>> requests, Duration patience, String who) {
        long deadline = Timer.now() + patience.toNanos(); // for the whole call: queueing counts
        One2OneChannel<String> reply = Channel.one2one();
        requests.out().write(reply);
        int chosen = new Alternative(reply.in(), Guards.deadline(deadline)).priSelect();
        check(chosen == 0, "late reply: " + who + " gave up after " + patience.toMillis() + " ms");
        reply.in().read();
    }

    private static void check(boolean ok, String bug) {
        if (!ok) {
            throw new AssertionError(bug);
        }
    }
}
