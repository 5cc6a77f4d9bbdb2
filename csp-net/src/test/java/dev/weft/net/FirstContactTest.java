package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Parallel;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a program meets on first contact with the network: nodes started in any order, a name registered from
 * a fiber, a type one node allows and the other does not.
 */
@Timeout(60)
class FirstContactTest {
    /** A type the writing node allows and the reading node does not. */
    record Trade(String symbol, int quantity) {
    }

    private final Queue<LogRecord> logged = new ConcurrentLinkedQueue<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord r) {
            logged.add(r);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };
    private final Logger netLog = Logger.getLogger("dev.weft.net");

    @BeforeEach
    void captureTheLog() {
        netLog.addHandler(capture);
    }

    @AfterEach
    void releaseTheLog() {
        netLog.removeHandler(capture);
    }

    private long loggedContaining(String text) {
        return logged.stream().filter(r -> r.getMessage().contains(text)).count();
    }

    private static int freePort() throws IOException {
        return FreePorts.belowTheEphemeralRange(); // see FreePorts: the nodes bind port 0 before this is bound
    }

    /**
     * Reader and writer start before their name server, all three on one carrier: registering and resolving
     * pause their fibers while the server is not up (the carrier goes on: it starts the server), and both
     * find it once it is.
     */
    @Test
    void nodesStartInAnyOrderAndTheNameServiceNeverHoldsACarrier() throws Exception {
        NodeAddress serverAt = new NodeAddress("127.0.0.1", freePort());
        AtomicReference<String> received = new AtomicReference<>();
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.singleThreaded()) {
            Node reader = nodes.start(Node.builder().nameServer(serverAt));
            Node writer = nodes.start(Node.builder().nameServer(serverAt));
            Weft.run(s, () -> Parallel.run(
                    () -> {
                        NetChannelInput<String> in = reader.net2one("late");
                        received.set(in.read());
                    },
                    () -> writer.<String>one2net("late", Duration.ofSeconds(30)).write("hello"),
                    () -> {
                        // this fiber runs only if the two above left the one carrier free while they wait
                        while (loggedContaining("cannot be reached") < 2) {
                            Timer.sleep(Duration.ofMillis(5));
                        }
                        nodes.start(Node.builder().bind(serverAt.host(), serverAt.port()).serveNames());
                    }));
            assertEquals("hello", received.get());
            assertEquals(2, loggedContaining("cannot be reached"), "each waiting party says so once");
        }
    }

    /** A name server that never comes up: the resolve tries until max, then fails with a stack through the call. */
    @Test
    void aNameServerThatNeverComesUpFailsTheResolveAtMaxWithTheCallersStack() throws Exception {
        NodeAddress nowhere = new NodeAddress("127.0.0.1", freePort());
        try (Nodes nodes = new Nodes()) {
            Node b = nodes.start(Node.builder().nameServer(nowhere));
            Duration max = Duration.ofSeconds(3);
            long start = System.nanoTime();
            LinkLostException e = assertThrows(LinkLostException.class, () -> b.one2net("trades", max));
            long waitedMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(waitedMillis >= max.toMillis() - 1000, "tried for most of max, not once: " + waitedMillis + " ms");
            assertTrue(e.getMessage().contains(nowhere.toString()) && e.getMessage().contains("trades"), e.getMessage());
            assertTrue(Arrays.stream(e.getStackTrace()).anyMatch(f -> f.getMethodName().startsWith(
                    "aNameServerThatNeverComesUpFailsTheResolveAtMax")), "the stack shows the caller");
        }
    }

    /**
     * The reading node does not allow the type the writer sends: the writer's error names the type and says
     * to allow it on the reading node, the reader's log says so, that channel fails at both ends (the reader
     * does not wait for ever), and the link with its other channels goes on.
     */
    @Test
    void aTypeTheReaderDoesNotAllowFailsThatChannelOnlyAndIsNamedAtTheWriter() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node readerNode = nodes.start();
            Node writerNode = nodes.start(Node.builder().allow(Trade.class));
            NetChannelInput<Object> trades = readerNode.net2one();
            NetChannelInput<String> other = readerNode.net2one(1);
            NetChannelOutput<String> toOther = writerNode.one2net(other.location());
            toOther.write("before"); // the link is up and carries another channel
            Nodes.Party<Object> reading = nodes.thread("reader", trades::read);

            NetChannelOutput<Trade> out = writerNode.one2net(trades.location());
            PoisonException atWriter = assertThrows(PoisonException.class, () -> out.write(new Trade("ACME", 7)));
            assertTrue(atWriter.getMessage().contains(Trade.class.getName())
                    && atWriter.getMessage().contains("allow") && atWriter.getMessage().contains("reading node"),
                    atWriter.getMessage());
            assertThrows(PoisonException.class, () -> out.write(new Trade("ACME", 8)), "the channel stays failed");

            Throwable atReader = reading.failure();
            assertTrue(atReader instanceof PoisonException && atReader.getMessage().contains("allow"), atReader.toString());
            assertEquals(1, loggedContaining("not allowed on this node"), List.copyOf(logged).toString());

            assertEquals("before", other.read());
            toOther.write("after");
            assertEquals("after", other.read());
        }
    }
}
