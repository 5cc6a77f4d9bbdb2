package dev.weft.net.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/** Self-signed certificates for tests, made by the JDK's keytool. */
public final class TestCertificates {
    private static final char[] PASSWORD = "changeit".toCharArray();

    private TestCertificates() {
    }

    /** A TLS context with a fresh self-signed key for 127.0.0.1, trusting that certificate alone. */
    public static SSLContext selfSigned(Path dir, String name) throws Exception {
        return context(keystore(dir, name));
    }

    /** A PKCS12 keystore with a fresh self-signed EC key pair for 127.0.0.1, made by keytool. */
    private static Path keystore(Path dir, String name) throws Exception {
        Path file = dir.resolve(name + ".p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
                "-dname", "CN=" + name, "-ext", "SAN=ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", file.toString(), "-storepass", new String(PASSWORD), "-keypass", new String(PASSWORD))
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(keytool.waitFor(30, TimeUnit.SECONDS), "keytool did not finish");
        assertEquals(0, keytool.exitValue(), output);
        return file;
    }

    /** A TLS context with the keystore's key, trusting its certificate alone. */
    private static SSLContext context(Path keystore) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, PASSWORD);
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        String alias = keys.aliases().nextElement();
        trust.setCertificateEntry(alias, keys.getCertificate(alias));
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD);
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);
        return context;
    }
}
