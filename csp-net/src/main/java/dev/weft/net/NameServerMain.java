package dev.weft.net;

import java.util.concurrent.CountDownLatch;

/**
 * A standalone name server: {@code java dev.weft.net.NameServerMain [host:port]} (default
 * {@code 127.0.0.1:7000}); set {@code WEFT_SECRET} in the environment to require a shared secret. It prints
 * where it listens and serves until the JVM is stopped.
 */
public final class NameServerMain {
    private NameServerMain() {
    }

    /** Starts the name server; see the class comment for the arguments. */
    public static void main(String[] args) throws InterruptedException {
        if (args.length > 1 || (args.length == 1 && args[0].startsWith("-"))) {
            System.err.println("usage: java dev.weft.net.NameServerMain [host:port]   (default 127.0.0.1:7000)");
            System.exit(2);
        }
        NodeAddress at = NodeAddress.parse(args.length == 1 ? args[0] : "127.0.0.1:7000");
        Node.Builder b = Node.builder().bind(at.host(), at.port()).serveNames();
        String secret = System.getenv("WEFT_SECRET");
        if (secret != null && !secret.isEmpty()) {
            b.secret(secret);
        }
        Node node = b.start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.close();
            stopped.countDown();
        }, "weft-name-server-stop"));
        System.out.println("weft name server listening on " + node.address());
        stopped.await();
    }
}
