package dev.weft.net.transport;

import dev.weft.net.NodeAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;

/** Configurations and waits the transport tests share. */
final class Nodes {
    static final String HOST = "127.0.0.1";

    private Nodes() {
    }

    /** A node on a free loopback port: open, plain, 100 ms heartbeats, lost after 10 s of silence. */
    static TransportConfig config() {
        return config(null, null);
    }

    static TransportConfig config(String secret, SSLContext tls) {
        return new TransportConfig(HOST, 0, secret, tls, Duration.ofMillis(100), Duration.ofSeconds(10), 1 << 20);
    }

    static TransportConfig withHeartbeat(Duration interval, Duration timeout) {
        return new TransportConfig(HOST, 0, null, null, interval, timeout, 1 << 20);
    }

    /** An address no node listens on: a port just freed. */
    static NodeAddress unused() throws java.io.IOException {
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName(HOST))) {
            return new NodeAddress(HOST, s.getLocalPort());
        }
    }

    /** Waits until {@code condition} holds, checking every millisecond; fails after 20 s. */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(1);
        }
    }

    /**
     * Runs {@code task} on a thread of its own: tasks that block or wait for each other must not share a pool
     * (the common pool may have a single thread).
     */
    static <T> CompletableFuture<T> inThread(Supplier<T> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(task.get());
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "test-" + task);
        t.setDaemon(true);
        t.start();
        return result;
    }

    /** A channel-layer frame numbered {@code n}. */
    static Frame frame(long n) {
        return new Frame((byte) 16, 7, n);
    }

    /** Keeps {@code t}'s event loop busy until the latch returned is counted down: frames sent meanwhile queue up. */
    static CountDownLatch holdLoop(Transport t) throws InterruptedException {
        CountDownLatch busy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        t.links().loop.execute(() -> {
            busy.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        busy.await();
        return release;
    }
}
