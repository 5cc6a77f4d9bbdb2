package dev.weft.bench.harness;

import java.util.ArrayList;
import java.util.List;

/** Background load: threads that only burn CPU, so that more threads are runnable than there are cores. */
public final class BusyThreads implements AutoCloseable {
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stop;
    /** Keeps the loops' work observable, so that the JIT cannot drop it. */
    public volatile long sink;

    /** Starts {@code n} busy threads. */
    public BusyThreads(int n) {
        for (int i = 0; i < n; i++) {
            Thread t = new Thread(this::spin, "busy-" + i);
            t.setDaemon(true);
            t.start();
            threads.add(t);
        }
    }

    private void spin() {
        long x = 1;
        while (!stop) {
            for (int i = 0; i < 10_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        sink = x;
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join();
        }
    }
}
