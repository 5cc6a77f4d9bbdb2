package dev.weft.net;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Fiber;
import dev.weft.csp.IntProcess;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.csp.management.SchedulerMXBean;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import javax.management.JMX;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/** What socket tests share: loopback addresses, whole-message reads and writes, bounded waits for events. */
final class Sockets {
    private Sockets() {
    }

    /** A process that may throw IOException, as socket code does. */
    interface IoProcess {
        @Pausable
        void run() throws IOException;
    }

    /** An indexed process that may throw IOException. */
    interface IoIntProcess {
        @Pausable
        void run(int i) throws IOException;
    }

    /** {@code p} as a process: its IOException goes on as an {@link UncheckedIOException}. */
    static CSProcess io(IoProcess p) {
        return () -> {
            try {
                p.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    static IntProcess io(IoIntProcess p) {
        return i -> {
            try {
                p.run(i);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    /** What a server's fiber does with one connection it accepted. */
    interface IoConnectionProcess {
        @Pausable
        void run(TcpConnection c) throws IOException;
    }

    /** What a plain client thread does with its socket (its index, 0 to n - 1). */
    interface Client {
        void run(int i) throws Exception;
    }

    /**
     * Spawns on {@code s} a fiber that accepts the connections of {@code server}, each served by a fiber of its own,
     * until the server closes.
     */
    static void serveEach(Scheduler s, TcpServer server, IoConnectionProcess serve) {
        Weft.spawn(s, io(() -> {
            try {
                for (;;) {
                    TcpConnection c = server.accept();
                    Weft.spawn(io(() -> serve.run(c)));
                }
            } catch (ClosedChannelException e) {
                // the server closed as the test ended
            }
        }));
    }

    /** Runs {@code n} plain client threads at once and waits for them all; rethrows the first failure. */
    static void runClients(int n, Client client) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            Thread t = new Thread(() -> {
                try {
                    client.run(index);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("a client failed", failure.get());
        }
    }

    /** Loopback, port 0: a free port for a server. */
    static InetSocketAddress anyPort() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    /** Runs {@code test} on a single-threaded scheduler, then {@code iterations} times on two workers. */
    static void onOneAndTwoWorkers(int iterations, Consumer<Scheduler> test) {
        try (Scheduler s = Scheduler.singleThreaded()) {
            test.accept(s);
        }
        try (Scheduler s = Scheduler.create(2)) {
            for (int i = 0; i < iterations; i++) {
                test.accept(s);
            }
        }
    }

    @Pausable
    static void send(TcpConnection c, String text) throws IOException {
        c.write(ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    /** Reads until the end of the stream. */
    @Pausable
    static String readAll(TcpConnection c) throws IOException {
        StringBuilder b = new StringBuilder();
        ByteBuffer buf = ByteBuffer.allocate(1024);
        while (c.read(buf) >= 0) {
            b.append(new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8));
            buf.clear();
        }
        return b.toString();
    }

    /** Reads exactly {@code n} bytes as text. */
    @Pausable
    static String readExactly(TcpConnection c, int n) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(n);
        while (buf.hasRemaining()) {
            if (c.read(buf) < 0) {
                throw new IOException("end of stream after " + buf.position() + " of " + n + " bytes");
            }
        }
        return new String(buf.array(), StandardCharsets.UTF_8);
    }

    /** Waits (bounded by the test's timeout, which interrupts) until {@code condition} holds. */
    static void awaitTrue(String what, BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted (timed out?) while waiting until " + what);
            }
            Thread.yield();
        }
    }

    /** Waits until {@code n} fibers of {@code s} are paused at {@code site} (a method, as fiber dumps show it). */
    static void awaitPausedIn(Scheduler s, String site, int n) {
        awaitTrue(n + " fibers paused in " + site, () -> pausedIn(s, site) >= n);
    }

    /** As {@link #awaitPausedIn}, from a fiber of {@code s}: it yields to the others meanwhile. */
    @Pausable
    static void yieldUntilPausedIn(Scheduler s, String site, int n) {
        while (pausedIn(s, site) < n) {
            Fiber.yield();
        }
    }

    /** How many fibers of {@code s} are paused at {@code site} now. */
    static int pausedIn(Scheduler s, String site) {
        return s.dumpFibers().split(java.util.regex.Pattern.quote(site + "("), -1).length - 1;
    }

    /**
     * The live fibers of {@code s}, as its management bean counts them. Weft registers the bean once the platform
     * MBean server exists (made here, as a JMX agent would), within a watchdog round: this waits for it.
     */
    static int liveFibers(Scheduler s) {
        try {
            ObjectName name = new ObjectName("dev.weft:type=Scheduler,name=" + s.name());
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!ManagementFactory.getPlatformMBeanServer().isRegistered(name)) {
                if (System.nanoTime() - deadline > 0) {
                    throw new AssertionError("no MBean " + name + " 10 s after the server was made");
                }
                Thread.sleep(1);
            }
            return JMX.newMXBeanProxy(ManagementFactory.getPlatformMBeanServer(), name, SchedulerMXBean.class)
                    .getLiveFibers();
        } catch (MalformedObjectNameException | InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** The file descriptors this process holds open. */
    static int openFds() {
        String[] fds = new File("/proc/self/fd").list();
        if (fds == null) {
            throw new AssertionError("/proc/self/fd cannot be listed");
        }
        return fds.length;
    }
}
