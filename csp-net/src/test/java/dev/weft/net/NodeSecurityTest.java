package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.transport.TestCertificates;
import java.nio.file.Path;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A node's secret and TLS, through its builder: net channels work between nodes that agree, and only then. */
@Timeout(60)
class NodeSecurityTest {
    @TempDir
    Path dir;

    @Test
    void nodesWithTheSameSecretTalkAndOthersAreRefused() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start(TestCarriers.builder().secret("shared"));
            Node b = nodes.start(TestCarriers.builder().secret("shared"));
            Node stranger = nodes.start(TestCarriers.builder().secret("guessed"));
            Node open = nodes.start();
            NetChannelInput<String> in = b.net2one(4);
            a.<String>one2net(in.location()).write("with the secret");
            assertEquals("with the secret", in.read());
            for (Node outsider : new Node[] {stranger, open}) {
                Throwable t = failureOfWrite(outsider.one2net(in.location()));
                assertInstanceOf(LinkLostException.class, t);
                assertTrue(t.getMessage().contains("secret"), t.getMessage());
            }
        }
    }

    @Test
    void nodesOverTlsTalkAndAPlainNodeIsRefused() throws Exception {
        SSLContext tls = TestCertificates.selfSigned(dir, "node");
        try (Nodes nodes = new Nodes()) {
            Node a = nodes.start(TestCarriers.builder().tls(tls));
            Node b = nodes.start(TestCarriers.builder().tls(tls).secret("and a secret"));
            Node c = nodes.start(TestCarriers.builder().tls(tls).secret("and a secret"));
            NetChannelInput<String> in = b.net2one(4);
            c.<String>one2net(in.location()).write("over TLS");
            assertEquals("over TLS", in.read());
            NetChannelInput<String> plainIn = a.net2one(4);
            Node plain = nodes.start();
            assertInstanceOf(LinkLostException.class, failureOfWrite(plain.one2net(plainIn.location())));
        }
    }

    private static Throwable failureOfWrite(NetChannelOutput<String> out) {
        try {
            out.write("let me in");
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("the write went through");
    }
}
