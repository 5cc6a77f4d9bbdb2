package dev.weft.net.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.weft.net.ChildNode;
import dev.weft.net.HostileTransport;
import dev.weft.net.LinkLostException;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import dev.weft.net.NodeAddress;
import dev.weft.net.Nodes;
import dev.weft.net.TestCarriers;
import dev.weft.net.codec.KryoCodec;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node in a JVM of its own, attacked over real sockets: garbage, an oversized length, a wrong secret, a
 * gadget. Each attack is refused (the gadget, of a type the node does not allow, fails the input it was sent
 * to), nothing is built, and the node serves its honest peer throughout.
 */
@Timeout(90)
class ChildHostileTest {
    private static final String SECRET = "s3cret";

    @Test
    void aNodeInAnotherJvmRefusesEveryAttackAndGoesOn() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node parent = nodes.start(TestCarriers.builder().serveNames().secret(SECRET));
            NetChannelInput<String> replies = parent.net2one("echo.out");
            Process child = ChildNode.start(parent.address(), "guarded", SECRET);
            try {
                NetChannelOutput<String> echo = parent.one2net("echo.in", Duration.ofSeconds(30));
                NodeAddress target = echo.location().node();
                assertEchoes(echo, replies, "before");

                rawAttack(target, random(4096)); // garbage
                assertEchoes(echo, replies, "after garbage");
                rawAttack(target, new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3}); // 2 GiB frame
                assertEchoes(echo, replies, "after an oversized length");

                try (Node wrongSecret = TestCarriers.builder().secret("not the secret").start()) {
                    Throwable t = failureOfWrite(wrongSecret.one2net(echo.location()));
                    assertInstanceOf(LinkLostException.class, t);
                    assertTrue(t.getMessage().contains("secret"), t.getMessage());
                }
                assertEchoes(echo, replies, "after a wrong secret");

                // knows the secret, sends a gadget (a type the child does not allow) to an input: that input fails
                NetChannelLocation sink = parent.one2net("guarded.sink", Duration.ofSeconds(30)).location();
                try (HostileTransport h = new HostileTransport(SECRET)) {
                    byte[] gadget = new KryoCodec(HostilePeerTest.Gadget.class).encode(new HostilePeerTest.Gadget());
                    Link link = h.transport.link(target);
                    link.send(new Frame((byte) 16, sink.id(), 1, gadget));
                    Frame refusal = h.answered.get(30, TimeUnit.SECONDS);
                    assertEquals(Protocol.POISON_LANE, refusal.type());
                    assertEquals(Protocol.TYPE_NOT_ALLOWED, refusal.number());
                }
                assertEchoes(echo, replies, "after a gadget");
                echo.write("gadgets?");
                assertEquals("gadgets: 0", replies.read());
            } finally {
                child.destroyForcibly();
            }
        }
    }

    private static void assertEchoes(NetChannelOutput<String> echo, NetChannelInput<String> replies, String when) {
        echo.write(when);
        assertEquals("echo: " + when, replies.read());
    }

    private static Throwable failureOfWrite(NetChannelOutput<String> out) {
        try {
            out.write("let me in");
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("a write with the wrong secret went through");
    }

    /** Sends {@code bytes} on a raw socket, then waits until the node closes it. */
    private static void rawAttack(NodeAddress target, byte[] bytes) throws Exception {
        try (Socket s = new Socket(target.host(), target.port())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(bytes);
            out.flush();
            InputStream in = s.getInputStream();
            try {
                while (in.read() >= 0) {
                    // whatever the node says before it closes
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("the node kept a hostile connection open", e);
            } catch (java.io.IOException reset) {
                // closed with a reset: refused too
            }
        }
    }

    private static byte[] random(int n) {
        byte[] b = new byte[n];
        new Random(42).nextBytes(b);
        return b;
    }
}
