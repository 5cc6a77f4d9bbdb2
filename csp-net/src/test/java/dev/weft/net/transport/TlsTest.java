package dev.weft.net.transport;

import static dev.weft.net.transport.Nodes.config;
import static dev.weft.net.transport.Nodes.frame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.ssl.SslHandler;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** TLS between nodes, with self-signed certificates the JDK's keytool makes for the test. */
class TlsTest {
    @TempDir
    static Path dir;
    private static SSLContext trusted;
    private static SSLContext stranger;

    @BeforeAll
    static void makeCertificates() throws Exception {
        trusted = TestCertificates.selfSigned(dir, "trusted");
        stranger = TestCertificates.selfSigned(dir, "stranger");
    }

    @Test
    @Timeout(20)
    void tlsNodesTalkOverTls() throws Exception {
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        try (Transport a = Transport.start(config(null, trusted), ra, dev.weft.net.TestCarriers.loops()); Transport b = Transport.start(config(null, trusted), rb, dev.weft.net.TestCarriers.loops())) {
            Link ab = a.link(b.address());
            for (int i = 0; i < 50; i++) {
                ab.send(frame(i));
            }
            for (int i = 0; i < 50; i++) {
                assertEquals(i, rb.next().frame().number());
            }
            SslHandler tls = ((PeerLink) ab).connection().channel().pipeline().get(SslHandler.class);
            assertNotNull(tls);
            assertTrue(tls.engine().getSession().getProtocol().startsWith("TLS"), tls.engine().getSession().getProtocol());
            b.link(a.address()).send(frame(99));
            assertEquals(99, ra.next().frame().number());
        }
    }

    @Test
    @Timeout(20)
    void tlsWithASecretToo() throws Exception {
        Recorder rb = new Recorder();
        try (Transport a = Transport.start(config("s", trusted), new Recorder(), dev.weft.net.TestCarriers.loops()); Transport b = Transport.start(config("s", trusted), rb, dev.weft.net.TestCarriers.loops())) {
            a.link(b.address()).send(frame(1));
            assertEquals(1, rb.next().frame().number());
        }
    }

    @Test
    @Timeout(20)
    void aTlsNodeAndAPlainNodeFailToLinkWithAReason() throws Exception {
        for (List<Boolean> tls : List.of(List.of(true, false), List.of(false, true))) {
            Recorder ra = new Recorder();
            Recorder rb = new Recorder();
            try (Transport a = Transport.start(config(null, tls.get(0) ? trusted : null), ra, dev.weft.net.TestCarriers.loops());
                 Transport b = Transport.start(config(null, tls.get(1) ? trusted : null), rb, dev.weft.net.TestCarriers.loops())) {
                Link link = a.link(b.address());
                link.send(frame(1));
                Recorder.Lost lost = ra.nextLoss();
                assertSame(link, lost.link());
                assertTrue(lost.why().contains(b.address().toString()), lost.why());
                if (tls.get(0)) {
                    assertTrue(lost.why().contains("TLS"), lost.why());
                }
                assertEquals(0, rb.pendingFrames());
            }
        }
    }

    @Test
    @Timeout(20)
    void anUntrustedCertificateFailsTheLink() throws Exception {
        Recorder ra = new Recorder();
        Recorder rb = new Recorder();
        try (Transport a = Transport.start(config(null, trusted), ra, dev.weft.net.TestCarriers.loops()); Transport b = Transport.start(config(null, stranger), rb, dev.weft.net.TestCarriers.loops())) {
            Link link = a.link(b.address());
            link.send(frame(1));
            Recorder.Lost lost = ra.nextLoss();
            assertSame(link, lost.link());
            assertTrue(lost.why().startsWith("TLS with peer " + b.address() + " failed"), lost.why());
            assertEquals(0, rb.pendingFrames());
        }
    }
}
