package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Nodes in separate JVMs: real processes, killed for real. */
@Timeout(60)
class ChildProcessTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    @Test
    void aKilledNodeFailsEveryEndThatUsedItsLinkWithinTheHeartbeatTimeout() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node parent = nodes.start(TestCarriers.builder().serveNames().heartbeat(Duration.ofMillis(200), TIMEOUT));
            NetChannelInput<String> in = parent.net2one("parent.in");
            Process victim = ChildNode.start(parent.address(), "victim");
            try {
                assertEquals("from the victim", in.read());
                NetChannelOutput<String> toVictim = parent.one2net("victim.in", Duration.ofSeconds(10));
                Nodes.Party<Void> writer = nodes.thread("writer", () -> {
                    toVictim.write("never read");
                    return null;
                });
                Nodes.Party<String> reader = nodes.thread("reader", in::read);
                // a second node blocked on the victim too: every node involved hears of it
                Node other = nodes.start(TestCarriers.builder().nameServer(parent.address())
                        .heartbeat(Duration.ofMillis(200), TIMEOUT));
                NetChannelOutput<String> fromOther = other.one2net("victim.in", Duration.ofSeconds(10));
                Nodes.Party<Void> otherWriter = nodes.thread("other writer", () -> {
                    fromOther.write("never read either");
                    return null;
                });
                writer.awaitBlocked();
                reader.awaitBlocked();
                otherWriter.awaitBlocked();
                long killed = System.nanoTime();
                victim.destroyForcibly();
                assertInstanceOf(LinkLostException.class, writer.failure());
                assertInstanceOf(LinkLostException.class, reader.failure());
                assertInstanceOf(LinkLostException.class, otherWriter.failure());
                long tookMs = (System.nanoTime() - killed) / 1_000_000;
                assertTrue(tookMs < TIMEOUT.toMillis() + 1000, "took " + tookMs + " ms");
                // the node goes on: its other channels work
                NetChannelInput<String> fresh = parent.net2one();
                Nodes.Party<Void> w = nodes.thread("fresh writer", () -> {
                    parent.<String>one2net(fresh.location()).write("still here");
                    return null;
                });
                assertEquals("still here", fresh.read());
                w.join();
            } finally {
                victim.destroyForcibly();
            }
        }
    }

    @Test
    void anEchoInAnotherJvm() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node parent = nodes.start(TestCarriers.builder().serveNames());
            NetChannelInput<String> replies = parent.net2one("echo.out");
            Process echo = ChildNode.start(parent.address(), "echo");
            try {
                NetChannelOutput<String> out = parent.one2net("echo.in", Duration.ofSeconds(10));
                for (int i = 0; i < 100; i++) {
                    out.write("x" + i); // returns once the child has read it
                    assertEquals("echo: x" + i, replies.read());
                }
            } finally {
                echo.destroyForcibly();
            }
        }
    }
}
