package dev.weft.bench.peers;

import dev.weft.samples.Mandelbrot;
import java.util.concurrent.SynchronousQueue;

/**
 * The workloads written for Java threads, one thread per process, talking over {@link SynchronousQueue}s (a
 * rendezvous, like an unbuffered CSP channel). The same code serves platform and virtual threads: only the
 * {@link ThreadStarter} differs.
 */
public final class Threads {
    private static final Integer STOP = Integer.MIN_VALUE;

    private final ThreadStarter starter;

    /** Workloads whose processes are started by {@code starter}. */
    public Threads(ThreadStarter starter) {
        this.starter = starter;
    }

    /** A body that may block interruptibly. */
    @FunctionalInterface
    interface Body {
        void run() throws InterruptedException;
    }

    /** Runs the bodies as concurrent threads and waits for all of them. */
    void par(Body... bodies) {
        Thread[] threads = new Thread[bodies.length];
        for (int i = 0; i < bodies.length; i++) {
            Body b = bodies[i];
            threads[i] = starter.start(() -> {
                try {
                    b.run();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        try {
            for (Thread t : threads) {
                t.join();
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** CommsTime: {@code cycles} measured cycles (plus one warm-up cycle) of prefix, delta, successor, consumer. */
    public void commsTime(int cycles) {
        int m = cycles + 1;
        SynchronousQueue<Integer> a = new SynchronousQueue<>();
        SynchronousQueue<Integer> b = new SynchronousQueue<>();
        SynchronousQueue<Integer> c = new SynchronousQueue<>();
        SynchronousQueue<Integer> d = new SynchronousQueue<>();
        par(() -> { // prefix
            a.put(0);
            for (int i = 1; i < m; i++) {
                a.put(c.take());
            }
        }, () -> { // delta
            for (int i = 0; i < m; i++) {
                Integer v = a.take();
                b.put(v);
                d.put(v);
            }
        }, () -> { // successor: the last value is not sent round again
            for (int i = 0; i < m; i++) {
                Integer v = b.take();
                if (i < m - 1) {
                    c.put(v + 1);
                }
            }
        }, () -> { // consumer
            for (int i = 0; i < m; i++) {
                d.take();
            }
        });
    }

    /** Token ring: returns the round trips counted (see {@code dev.weft.samples.TokenRing}). */
    public int tokenRing(int elements, int tokens, int roundTrips) {
        @SuppressWarnings("unchecked")
        SynchronousQueue<Integer>[] links = new SynchronousQueue[elements];
        for (int i = 0; i < elements; i++) {
            links[i] = new SynchronousQueue<>();
        }
        int[] counted = new int[1];
        Body[] bodies = new Body[elements];
        bodies[0] = () -> {
            SynchronousQueue<Integer> in = links[0];
            SynchronousQueue<Integer> out = links[1];
            for (int t = 0; t < tokens; t++) {
                out.put(t);
            }
            int inFlight = tokens;
            int arrived = 0;
            while (inFlight > 0) {
                Integer token = in.take();
                inFlight--;
                arrived++;
                if (arrived + inFlight < roundTrips) {
                    out.put(token);
                    inFlight++;
                }
            }
            out.put(STOP);
            in.take();
            counted[0] = arrived;
        };
        for (int i = 1; i < elements; i++) {
            SynchronousQueue<Integer> in = links[i];
            SynchronousQueue<Integer> out = links[(i + 1) % elements];
            bodies[i] = () -> {
                for (;;) {
                    Integer v = in.take();
                    out.put(v);
                    if (v == STOP) {
                        return;
                    }
                }
            };
        }
        par(bodies);
        return counted[0];
    }

    /** Mandelbrot farm with {@code workers} worker threads; returns the image's rows. */
    public int[][] mandelbrot(int workers, int width, int height, int maxIter) {
        SynchronousQueue<Integer> jobs = new SynchronousQueue<>();
        SynchronousQueue<Object[]> results = new SynchronousQueue<>();
        int[][] image = new int[height][];
        Body[] bodies = new Body[workers + 2];
        bodies[0] = () -> {
            for (int y = 0; y < height; y++) {
                jobs.put(y);
            }
            for (int w = 0; w < workers; w++) {
                jobs.put(-1);
            }
        };
        bodies[1] = () -> {
            for (int i = 0; i < height; i++) {
                Object[] r = results.take();
                image[(Integer) r[0]] = (int[]) r[1];
            }
        };
        for (int w = 0; w < workers; w++) {
            bodies[w + 2] = () -> {
                for (int y = jobs.take(); y >= 0; y = jobs.take()) {
                    results.put(new Object[] {y, Mandelbrot.row(y, width, height, maxIter)});
                }
            };
        }
        par(bodies);
        return image;
    }

    /** Fan-in: {@code writers} threads each put {@code perWriter} values into one queue; returns their sum. */
    public long fanIn(int writers, int perWriter) {
        SynchronousQueue<Integer> channel = new SynchronousQueue<>();
        long[] sum = new long[1];
        Body[] bodies = new Body[writers + 1];
        for (int w = 0; w < writers; w++) {
            bodies[w] = () -> {
                for (int i = 1; i <= perWriter; i++) {
                    channel.put(i);
                }
            };
        }
        bodies[writers] = () -> {
            long s = 0;
            for (int i = 0; i < writers * perWriter; i++) {
                s += channel.take();
            }
            sum[0] = s;
        };
        par(bodies);
        return sum[0];
    }

    /** Spawn and join {@code count} threads that do nothing; returns how many ran. */
    public int spawnJoin(int count) {
        java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
        Thread[] threads = new Thread[count];
        for (int i = 0; i < count; i++) {
            threads[i] = starter.start(ran::incrementAndGet);
        }
        try {
            for (Thread t : threads) {
                t.join();
            }
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        return ran.get();
    }
}
