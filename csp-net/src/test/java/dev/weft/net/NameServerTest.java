package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Names registered at a name server, resolved from other nodes; names are leases of their node. */
@Timeout(30)
class NameServerTest {
    @Test
    void aResolveWaitsUntilTheNameIsRegistered() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node names = nodes.start(TestCarriers.builder().serveNames());
            Node b = nodes.start(TestCarriers.builder().nameServer(names.address()));
            Node c = nodes.start(TestCarriers.builder().nameServer(names.address()));
            Nodes.Party<Void> writer = nodes.thread("writer", () -> {
                c.<String>one2net("greetings").write("hello by name");
                return null;
            });
            writer.awaitBlocked(); // resolving: the name is not there yet
            NetChannelInput<String> in = b.net2one("greetings");
            assertEquals("hello by name", in.read());
            writer.join();
        }
    }

    @Test
    void theNameServerNodeUsesItsOwnTable() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node names = nodes.start(TestCarriers.builder().serveNames());
            Node b = nodes.start(TestCarriers.builder().nameServer(names.address()));
            NetChannelInput<String> in = names.net2one("local");
            Nodes.Party<Void> writer = nodes.thread("writer", () -> {
                b.<String>one2net("local").write("to the name server's own input");
                return null;
            });
            assertEquals("to the name server's own input", in.read());
            writer.join();
            NetChannelInput<String> remote = b.net2one("remote");
            Nodes.Party<Void> w2 = nodes.thread("writer 2", () -> {
                names.<String>one2net("remote").write("from the name server");
                return null;
            });
            assertEquals("from the name server", remote.read());
            w2.join();
        }
    }

    @Test
    void aTakenNameIsRefused() {
        try (Nodes nodes = new Nodes()) {
            Node names = nodes.start(TestCarriers.builder().serveNames());
            Node b = nodes.start(TestCarriers.builder().nameServer(names.address()));
            Node c = nodes.start(TestCarriers.builder().nameServer(names.address()));
            b.net2one("mine");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.net2one("mine"));
            assertTrue(e.getMessage().contains("mine"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> names.net2one("mine"));
        }
    }

    @Test
    void anUnknownNameIsNotFoundAfterTheWait() {
        try (Nodes nodes = new Nodes()) {
            Node names = nodes.start(TestCarriers.builder().serveNames());
            Node b = nodes.start(TestCarriers.builder().nameServer(names.address()));
            NameNotFoundException e = assertThrows(NameNotFoundException.class,
                    () -> b.one2net("nobody", Duration.ofMillis(200)));
            assertTrue(e.getMessage().contains("nobody"), e.getMessage());
            assertThrows(NameNotFoundException.class, () -> names.one2net("nobody", Duration.ofMillis(50)));
        }
    }

    @Test
    void aClosedNodesNamesAreDropped() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node names = nodes.start(TestCarriers.builder().serveNames());
            Node b = nodes.start(TestCarriers.builder().nameServer(names.address()));
            Node c = nodes.start(TestCarriers.builder().nameServer(names.address()));
            b.net2one("leased");
            assertEquals(b.address(), c.one2net("leased", Duration.ofSeconds(5)).location().node());
            b.close();
            // the lease goes with b's link; until the name server has seen that, the old entry may answer
            Node d = nodes.start(TestCarriers.builder().nameServer(names.address()));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            NetChannelInput<String> again = null;
            while (again == null) {
                try {
                    again = d.net2one("leased");
                } catch (IllegalStateException stillThere) {
                    assertTrue(System.nanoTime() < deadline, "the name outlived its node");
                    Thread.onSpinWait();
                }
            }
            assertEquals(d.address(), c.one2net("leased", Duration.ofSeconds(5)).location().node());
        }
    }

    @Test
    void aNodeWithoutANameServerSaysSo() {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> a.net2one("x"));
            assertTrue(e.getMessage().contains("nameServer"), e.getMessage());
        }
    }

    @Test
    void aResolveWaitingWhenItsNodeClosesFails() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node names = nodes.start(TestCarriers.builder().serveNames());
            Node b = nodes.start(TestCarriers.builder().nameServer(names.address()));
            Nodes.Party<NetChannelOutput<String>> remote = nodes.thread("remote resolve", () -> b.one2net("never"));
            Nodes.Party<NetChannelOutput<String>> local = nodes.thread("local resolve", () -> names.one2net("never"));
            remote.awaitBlocked();
            local.awaitBlocked();
            b.close();
            names.close();
            assertTrue(remote.failure() instanceof LinkLostException, "remote");
            assertTrue(local.failure() instanceof LinkLostException, "local");
        }
    }

    @Test
    void aResolveFailsWhenTheNameServerDies() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node names = nodes.start(TestCarriers.builder().serveNames());
            Node b = nodes.start(TestCarriers.builder().nameServer(names.address()));
            b.net2one("up"); // a round trip: the link to the server is up (one never reached is asked again)
            Nodes.Party<NetChannelOutput<String>> waiting = nodes.thread("resolve", () -> b.one2net("never"));
            waiting.awaitBlocked();
            names.close();
            Throwable t = waiting.failure();
            assertTrue(t instanceof LinkLostException && t.getMessage().contains("name server"), t.toString());
        }
    }
}
