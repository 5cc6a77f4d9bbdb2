package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Connections: every client gets its own reply, also when another client gave up in mid-transaction. */
class ConnectionTest {
    @Test
    @Timeout(60)
    void poisonFromEitherEndStopsTheOther() {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            AtomicReference<Throwable> serverEnd = new AtomicReference<>();
            AtomicReference<Throwable> clientEnd = new AtomicReference<>();
            Weft.run(s, () -> {
                // the client poisons: a server blocked in accept ends
                One2OneConnection<Integer, Integer> c1 = Connection.one2one();
                Fiber server = Weft.spawn(() -> {
                    try {
                        for (;;) {
                            c1.server().reply(c1.server().accept() + 1);
                        }
                    } catch (PoisonException e) {
                        serverEnd.set(e);
                    }
                });
                assertEquals(2, c1.client().request(1));
                c1.client().poison();
                server.join();
                // the server poisons: clients blocked in request end, and later requests fail
                Any2OneConnection<Integer, Integer> c2 = Connection.any2one();
                Fiber client = Weft.spawn(() -> {
                    try {
                        c2.client().request(7);
                    } catch (PoisonException e) {
                        clientEnd.set(e);
                    }
                });
                assertEquals(7, c2.server().accept());
                c2.server().poison();
                client.join();
                try {
                    c2.client().request(8);
                    throw new AssertionError("a request on a poisoned connection returned");
                } catch (PoisonException expected) {
                    // as it should
                }
            });
            assertInstanceOf(PoisonException.class, serverEnd.get());
            assertInstanceOf(PoisonException.class, clientEnd.get());
        });
    }

    @Pausable
    private static void serve(ConnectionServer<Integer, Integer> server, One2OneChannel<Integer> gate) {
        for (;;) {
            int q = server.accept();
            if (q < 0) {
                gate.in().read(); // a slow request: answered once the test lets it
            }
            server.reply(q * 10);
        }
    }

    @Test
    @Timeout(60)
    void manyClientsEachGetTheirOwnReply() {
        Schedulers.onOneAndTwoWorkers(20, s -> {
            AtomicInteger wrong = new AtomicInteger();
            Weft.run(s, () -> {
                Any2OneConnection<Integer, Integer> c = Connection.any2one();
                One2OneChannel<Integer> gate = Channel.one2one();
                Fiber server = Weft.spawn(() -> serve(c.server(), gate));
                Parallel.forRange(1, 17, i -> {
                    for (int k = 0; k < 50; k++) {
                        if (c.client().request(i * 100 + k) != (i * 100 + k) * 10) {
                            wrong.incrementAndGet();
                        }
                    }
                });
                server.cancel();
            });
            assertEquals(0, wrong.get());
        });
    }

    @Test
    @Timeout(60)
    void aClientCancelledWhileItWaitsForItsReplyLeavesNothingBehind() {
        Schedulers.onOneAndTwoWorkers(100, s -> {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicInteger next = new AtomicInteger();
            Weft.run(s, () -> {
                Any2OneConnection<Integer, Integer> c = Connection.any2one();
                One2OneChannel<Integer> gate = Channel.one2one();
                Fiber server = Weft.spawn(() -> serve(c.server(), gate));
                Fiber slow = Weft.spawn(() -> {
                    try {
                        c.client().request(-1);
                    } catch (Throwable t) {
                        thrown.set(t);
                    }
                });
                // Once the server holds the slow request, its client waits for the reply: cancel the client.
                awaitServerHolding(gate);
                Schedulers.awaitParked(slow);
                slow.cancel();
                slow.join();
                // The late reply (-10) goes out; the next client must get its own.
                gate.out().write(0);
                next.set(c.client().request(7));
                server.cancel();
            });
            assertInstanceOf(CancelledException.class, thrown.get());
            assertEquals(70, next.get());
        });
    }

    /** Waits until the server is blocked on the gate, i.e. it has accepted the slow request. */
    @Pausable
    private static void awaitServerHolding(One2OneChannel<Integer> gate) {
        while (new Alternative(gate.out()).selectNow() != 0) { // ready once the server reads the gate
            Fiber.yield();
        }
    }

    @Test
    @Timeout(60)
    void anInterruptedClientThreadLeavesNothingBehind() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            for (int i = 0; i < 50; i++) {
                Any2OneConnection<Integer, Integer> c = Connection.any2one();
                One2OneChannel<Integer> gate = Channel.one2one();
                AtomicReference<Throwable> thrown = new AtomicReference<>();
                Thread runner = new Thread(() -> {
                    try {
                        Weft.run(s, () -> serve(c.server(), gate));
                    } catch (CancelledException expected) {
                        // the interrupt below ends the server's run
                    }
                });
                runner.setDaemon(true);
                runner.start();
                Thread client = new Thread(() -> {
                    try {
                        c.client().request(-1);
                    } catch (Throwable t) {
                        thrown.set(t);
                    }
                });
                client.start();
                while (new Alternative(gate.out()).selectNow() != 0) { // the server holds the slow request
                    Thread.onSpinWait();
                }
                Schedulers.awaitBlocked(client);
                client.interrupt();
                client.join();
                assertInstanceOf(CancelledException.class, thrown.get());
                gate.out().write(0);
                assertEquals(70, c.client().request(7));
                runner.interrupt(); // cancels the server's run
                runner.join();
            }
        }
    }
}
