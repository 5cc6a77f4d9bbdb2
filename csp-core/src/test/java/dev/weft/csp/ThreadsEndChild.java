package dev.weft.csp;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A program that uses every runtime thread of Weft (carriers, the watchdog, the deadlock probe, a blocking call,
 * a failure nobody joins), run in a fresh JVM by {@link ThreadsEndTest}. It prints "ended" if no Weft thread
 * outlives the program, else the threads left.
 *
 * <ul>
 *   <li>{@code close}: on a scheduler of its own, then closed: Weft's threads end by themselves;
 *   <li>{@code exec}: on the default scheduler, in a thread group of its own, which is then torn down the way
 *       {@code mvn exec:java} does it: every thread still alive in the group is interrupted and joined.
 * </ul>
 */
public final class ThreadsEndChild {
    private ThreadsEndChild() {
    }

    @Pausable
    static void work() {
        One2OneChannel<Integer> c = Channel.one2one();
        Parallel.run(() -> {
            for (int i = 0; i < 1000; i++) {
                c.out().write(i);
            }
            c.out().poison();
        }, () -> {
            try {
                for (;;) {
                    c.in().read();
                }
            } catch (PoisonException e) {
                // the end
            }
        });
        Weft.blocking(() -> {
            Thread.sleep(1);
            return null;
        });
        Weft.spawn(() -> {
            throw new IllegalStateException("nobody joins this (expected)");
        });
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("close")) {
            try (Scheduler s = Scheduler.create(2)) {
                Weft.run(s, ThreadsEndChild::work);
                try {
                    Weft.run(s, () -> Channel.<Integer>one2one().in().read());
                } catch (DeadlockException expected) {
                    // the probe thread ran
                }
            }
            report(survivors(Duration.ofSeconds(10)));
        } else {
            ThreadGroup group = new ThreadGroup("app");
            Thread main = new Thread(group, () -> {
                Weft.run(ThreadsEndChild::work);
                Fiber f = Weft.spawn(() -> {
                    throw new IllegalStateException("outside every run, nobody joins this (expected)");
                }); // its failure is held while its handle may be joined
                while (!f.isDone()) {
                    Thread.onSpinWait(); // else it may fail after the teardown below has looked for threads
                }
            }, "app-main");
            main.start();
            main.join();
            List<Thread> alive = new ArrayList<>();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getThreadGroup() == group) {
                    alive.add(t);
                }
            }
            for (Thread t : alive) {
                t.interrupt();
            }
            for (Thread t : alive) {
                t.join(5_000); // exec:java waits 15 s, then complains
            }
            report(survivors(Duration.ZERO));
        }
    }

    /** The Weft threads still alive once {@code patience} has passed without all of them ending. */
    private static List<String> survivors(Duration patience) throws InterruptedException {
        long end = System.nanoTime() + patience.toNanos();
        for (;;) {
            List<String> left = new ArrayList<>();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith("weft-") && t.isAlive()) {
                    left.add(t.getName() + " " + t.getState());
                }
            }
            if (left.isEmpty() || System.nanoTime() - end > 0) {
                return left;
            }
            Thread.sleep(10);
        }
    }

    private static void report(List<String> survivors) {
        System.out.println(survivors.isEmpty() ? "ended" : "alive: " + survivors);
    }
}
