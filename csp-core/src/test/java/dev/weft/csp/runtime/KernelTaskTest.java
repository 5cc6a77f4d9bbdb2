package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The kernel's word on a thread: asleep in a blocking read, runnable while it computes. */
class KernelTaskTest {
    private static final long PATIENCE = TimeUnit.SECONDS.toNanos(30);

    @Test
    @Timeout(60)
    void aThreadInABlockingReadSleepsAndASpinningOneIsRunnable() throws Exception {
        assumeTrue(Files.isSymbolicLink(Paths.get("/proc/thread-self")), "the kernel shows no threads here");
        AtomicReference<KernelTask> reader = new AtomicReference<>();
        AtomicReference<KernelTask> spinner = new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket client = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
             Socket accepted = server.accept()) {
            Thread blocked = new Thread(() -> {
                reader.set(KernelTask.ofCurrentThread());
                try (InputStream in = accepted.getInputStream()) {
                    in.read(); // blocks until the client writes
                } catch (Exception e) {
                    // the socket closed: the test ends
                }
            });
            Thread spinning = new Thread(() -> {
                spinner.set(KernelTask.ofCurrentThread());
                long x = 0;
                while (!stop.get()) {
                    x += System.nanoTime() & 1;
                }
                if (x == 42) {
                    System.out.print("");
                }
            });
            blocked.start();
            spinning.start();
            try {
                // The reader sleeps in the kernel once it reaches the read; the spinner may wait for a processor,
                // and is runnable throughout.
                long deadline = System.nanoTime() + PATIENCE;
                while ((reader.get() == null || reader.get().isRunnable() || spinner.get() == null)
                        && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                assertNotNull(reader.get());
                assertFalse(reader.get().isRunnable(), "a thread blocked in a socket read is not asleep");
                assertTrue(spinner.get().isRunnable(), "a spinning thread is not runnable");
                assertTrue(blocked.isAlive(), "the reader did not block");
            } finally {
                stop.set(true);
                client.getOutputStream().write(1);
                blocked.join(TimeUnit.SECONDS.toMillis(30));
                spinning.join(TimeUnit.SECONDS.toMillis(30));
            }
        }
    }
}
