package dev.weft.csp.runtime;

import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Warns when a fiber holds its carrier for long without pausing: a fiber that calls {@code Thread.sleep},
 * blocking I/O or a lock stalls every fiber queued behind it, and nothing else would say so. One daemon thread
 * for the whole JVM looks at every scheduler's carriers a few times per threshold; a slice seen running past
 * the threshold ({@code weft.stuckCarrierMillis}, default 50 ms, 0 to switch off) while its carrier waits
 * (sleeps, blocks on a lock), or ten times that while it runs (a computation, or blocking I/O, which the JVM
 * shows as running), is reported once, through
 * {@link System.Logger} (logger {@code dev.weft.csp}, level WARNING) with the carrier's stack, and as a JFR
 * event ({@link RuntimeEvents.StuckCarrier}). Looking costs the carriers nothing: the watchdog only reads
 * what each worker already publishes (the fiber it runs and its slice count).
 */
final class CarrierWatchdog {
    private static final System.Logger LOG = System.getLogger("dev.weft.csp");
    private static final Set<WorkerPool> POOLS = ConcurrentHashMap.newKeySet();
    private static Thread thread; // under the class's monitor

    private CarrierWatchdog() {
    }

    /** The threshold in nanoseconds, read each round so that it can be changed while running; 0: off. */
    static long thresholdNanos() {
        return Math.max(0, Long.getLong("weft.stuckCarrierMillis", 50)) * 1_000_000;
    }

    /** Starts watching {@code pool}'s carriers (and the watchdog, on first use). */
    static void watch(WorkerPool pool) {
        POOLS.add(pool);
        synchronized (CarrierWatchdog.class) {
            if (thread == null) {
                thread = new Thread(CarrierWatchdog::loop, "weft-carrier-watchdog");
                thread.setDaemon(true);
                thread.start();
            }
        }
    }

    /** Stops watching {@code pool}, whose carriers have stopped. */
    static void unwatch(WorkerPool pool) {
        POOLS.remove(pool);
    }

    private static void loop() {
        for (;;) {
            long threshold = thresholdNanos();
            LockSupport.parkNanos(threshold == 0 ? 1_000_000_000L : Math.max(5_000_000L, threshold / 4));
            if (threshold == 0) {
                continue;
            }
            long now = System.nanoTime();
            for (WorkerPool p : POOLS) {
                for (Worker w : p.workers()) {
                    w.watch(now, threshold);
                }
            }
        }
    }

    /**
     * Reports a slice of {@code fiber} on {@code carrier} that has lasted {@code nanos} so far, the carrier
     * {@code waiting} (blocked in the JVM) or running.
     */
    static void report(Object fiber, Thread carrier, long nanos, boolean waiting) {
        long ms = nanos / 1_000_000;
        RuntimeEvents.stuckCarrier(String.valueOf(fiber), carrier.getName(), ms);
        if (!LOG.isLoggable(Level.WARNING)) {
            return;
        }
        StringBuilder b = new StringBuilder().append(fiber).append(" has held carrier ").append(carrier.getName())
                .append(" for ").append(ms).append(" ms without pausing, ")
                .append(waiting ? "blocked in the JVM" : "running (computing, or in blocking I/O)")
                .append(", stalling the fibers queued behind it. A blocking call (Thread.sleep, I/O, a lock) belongs")
                .append(" in Weft.blocking; a long computation can call Fiber.yieldIfDue(). The carrier is at:");
        for (StackTraceElement e : carrier.getStackTrace()) {
            b.append("\n\tat ").append(e);
        }
        LOG.log(Level.WARNING, b.toString());
    }
}
