package dev.weft.bench.kilim;

import dev.weft.samples.Mandelbrot;
import java.util.concurrent.atomic.AtomicInteger;
import kilim.Mailbox;
import kilim.Pausable;
import kilim.Scheduler;
import kilim.Task;

/**
 * The workloads written for Kilim 2.0.2: each process is a {@link Task}, woven at build time by Kilim's own
 * weaver (see bench/pom.xml), and run by a Kilim {@link Scheduler} with a given number of threads. Kilim has no
 * rendezvous channel; the closest is a {@link Mailbox} holding at most one message, which is what is used.
 */
public final class KilimWorkloads {
    /**
     * The ring's end marker. The ring's messages are typed Object on purpose: Kilim's weaver, computing stack
     * map frames, looks up the supertypes of the types it merges, and on JDK 17+ Integer implements the sealed
     * interface ConstantDesc, whose PermittedSubclasses attribute Kilim's class reader refuses.
     */
    private static final Object RING_STOP = new Object();

    private KilimWorkloads() {
    }

    /** A mailbox holding at most one message: the nearest Kilim has to a synchronous channel. */
    static <T> Mailbox<T> channel() {
        return new Mailbox<T>(1, 1);
    }

    /** A Kilim scheduler with {@code threads} threads. */
    public static Scheduler scheduler(int threads) {
        return Scheduler.make(threads);
    }

    /** Starts the tasks on {@code s} and waits, from the calling thread, until all have ended. */
    static void par(Scheduler s, Task<?>... tasks) {
        for (Task<?> t : tasks) {
            t.setScheduler(s);
            t.start();
        }
        for (Task<?> t : tasks) {
            t.joinb();
        }
    }

    // ------------------------------------------------------------------------------------------- CommsTime

    /** CommsTime: {@code cycles} measured cycles (plus one warm-up cycle). */
    public static void commsTime(Scheduler s, int cycles) {
        int m = cycles + 1;
        Mailbox<Integer> a = channel();
        Mailbox<Integer> b = channel();
        Mailbox<Integer> c = channel();
        Mailbox<Integer> d = channel();
        par(s, new Prefix(c, a, m), new Delta(a, b, d, m), new Successor(b, c, m), new Consumer(d, m));
    }

    static final class Prefix extends Task<Object> {
        private final Mailbox<Integer> in;
        private final Mailbox<Integer> out;
        private final int m;

        Prefix(Mailbox<Integer> in, Mailbox<Integer> out, int m) {
            this.in = in;
            this.out = out;
            this.m = m;
        }

        @Override
        public void execute() throws Pausable {
            out.put(0);
            for (int i = 1; i < m; i++) {
                out.put(in.get());
            }
        }
    }

    static final class Delta extends Task<Object> {
        private final Mailbox<Integer> in;
        private final Mailbox<Integer> out0;
        private final Mailbox<Integer> out1;
        private final int m;

        Delta(Mailbox<Integer> in, Mailbox<Integer> out0, Mailbox<Integer> out1, int m) {
            this.in = in;
            this.out0 = out0;
            this.out1 = out1;
            this.m = m;
        }

        @Override
        public void execute() throws Pausable {
            for (int i = 0; i < m; i++) {
                Integer v = in.get();
                out0.put(v);
                out1.put(v);
            }
        }
    }

    static final class Successor extends Task<Object> {
        private final Mailbox<Integer> in;
        private final Mailbox<Integer> out;
        private final int m;

        Successor(Mailbox<Integer> in, Mailbox<Integer> out, int m) {
            this.in = in;
            this.out = out;
            this.m = m;
        }

        @Override
        public void execute() throws Pausable {
            for (int i = 0; i < m; i++) {
                Integer v = in.get();
                if (i < m - 1) {
                    out.put(v + 1);
                }
            }
        }
    }

    static final class Consumer extends Task<Object> {
        private final Mailbox<Integer> in;
        private final int m;

        Consumer(Mailbox<Integer> in, int m) {
            this.in = in;
            this.m = m;
        }

        @Override
        public void execute() throws Pausable {
            for (int i = 0; i < m; i++) {
                in.get();
            }
        }
    }

    // ------------------------------------------------------------------------------------------ token ring

    /** Token ring: returns the round trips counted. */
    public static int tokenRing(Scheduler s, int elements, int tokens, int roundTrips) {
        @SuppressWarnings("unchecked")
        Mailbox<Object>[] links = new Mailbox[elements];
        for (int i = 0; i < elements; i++) {
            links[i] = channel();
        }
        Task<?>[] tasks = new Task<?>[elements];
        RingHead head = new RingHead(links[0], links[1], tokens, roundTrips);
        tasks[0] = head;
        for (int i = 1; i < elements; i++) {
            tasks[i] = new RingElement(links[i], links[(i + 1) % elements]);
        }
        par(s, tasks);
        return head.arrived;
    }

    static final class RingHead extends Task<Object> {
        private final Mailbox<Object> in;
        private final Mailbox<Object> out;
        private final int tokens;
        private final int roundTrips;
        volatile int arrived;

        RingHead(Mailbox<Object> in, Mailbox<Object> out, int tokens, int roundTrips) {
            this.in = in;
            this.out = out;
            this.tokens = tokens;
            this.roundTrips = roundTrips;
        }

        @Override
        public void execute() throws Pausable {
            for (int t = 0; t < tokens; t++) {
                out.put(t);
            }
            int inFlight = tokens;
            int count = 0;
            while (inFlight > 0) {
                Object token = in.get();
                inFlight--;
                count++;
                if (count + inFlight < roundTrips) {
                    out.put(token);
                    inFlight++;
                }
            }
            out.put(RING_STOP);
            in.get();
            arrived = count;
        }
    }

    static final class RingElement extends Task<Object> {
        private final Mailbox<Object> in;
        private final Mailbox<Object> out;

        RingElement(Mailbox<Object> in, Mailbox<Object> out) {
            this.in = in;
            this.out = out;
        }

        @Override
        public void execute() throws Pausable {
            for (;;) {
                Object v = in.get();
                out.put(v);
                if (v == RING_STOP) {
                    return;
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------- mandelbrot farm

    /**
     * Mandelbrot farm with {@code workers} worker tasks; returns the image's rows. A Kilim mailbox has a single
     * consumer, so the workers cannot share one job mailbox: each asks the farmer for work over a shared request
     * mailbox (many producers, one consumer) and gets its row on a mailbox of its own.
     */
    public static int[][] mandelbrot(Scheduler s, int workers, int width, int height, int maxIter) {
        Mailbox<Integer> requests = channel();
        @SuppressWarnings("unchecked")
        Mailbox<Integer>[] jobs = new Mailbox[workers];
        Mailbox<Object[]> results = channel();
        int[][] image = new int[height][];
        Task<?>[] tasks = new Task<?>[workers + 2];
        tasks[0] = new Farmer(requests, jobs, height);
        tasks[1] = new Harvester(results, image);
        for (int w = 0; w < workers; w++) {
            jobs[w] = channel();
            tasks[w + 2] = new FarmWorker(w, requests, jobs[w], results, width, height, maxIter);
        }
        par(s, tasks);
        return image;
    }

    static final class Farmer extends Task<Object> {
        private final Mailbox<Integer> requests;
        private final Mailbox<Integer>[] jobs;
        private final int height;

        Farmer(Mailbox<Integer> requests, Mailbox<Integer>[] jobs, int height) {
            this.requests = requests;
            this.jobs = jobs;
            this.height = height;
        }

        @Override
        public void execute() throws Pausable {
            for (int y = 0; y < height; y++) {
                jobs[requests.get()].put(y);
            }
            for (int w = 0; w < jobs.length; w++) {
                jobs[requests.get()].put(-1);
            }
        }
    }

    static final class FarmWorker extends Task<Object> {
        private final Integer me;
        private final Mailbox<Integer> requests;
        private final Mailbox<Integer> jobs;
        private final Mailbox<Object[]> results;
        private final int width;
        private final int height;
        private final int maxIter;

        FarmWorker(int me, Mailbox<Integer> requests, Mailbox<Integer> jobs, Mailbox<Object[]> results,
                   int width, int height, int maxIter) {
            this.me = me;
            this.requests = requests;
            this.jobs = jobs;
            this.results = results;
            this.width = width;
            this.height = height;
            this.maxIter = maxIter;
        }

        @Override
        public void execute() throws Pausable {
            for (;;) {
                requests.put(me);
                int y = jobs.get();
                if (y < 0) {
                    return;
                }
                results.put(new Object[] {y, Mandelbrot.row(y, width, height, maxIter)});
            }
        }
    }

    static final class Harvester extends Task<Object> {
        private final Mailbox<Object[]> results;
        private final int[][] image;

        Harvester(Mailbox<Object[]> results, int[][] image) {
            this.results = results;
            this.image = image;
        }

        @Override
        public void execute() throws Pausable {
            for (int i = 0; i < image.length; i++) {
                Object[] r = results.get();
                image[(Integer) r[0]] = (int[]) r[1];
            }
        }
    }

    // ---------------------------------------------------------------------------------- fan-in and select

    /** Fan-in: {@code writers} tasks each put {@code perWriter} values into one mailbox; returns their sum. */
    public static long fanIn(Scheduler s, int writers, int perWriter) {
        Mailbox<Integer> channel = channel();
        Task<?>[] tasks = new Task<?>[writers + 1];
        for (int w = 0; w < writers; w++) {
            tasks[w] = new Writer(channel, perWriter);
        }
        Reader reader = new Reader(channel, writers * perWriter);
        tasks[writers] = reader;
        par(s, tasks);
        return reader.sum;
    }

    static final class Writer extends Task<Object> {
        private final Mailbox<Integer> out;
        private final int count;

        Writer(Mailbox<Integer> out, int count) {
            this.out = out;
            this.count = count;
        }

        @Override
        public void execute() throws Pausable {
            for (int i = 1; i <= count; i++) {
                out.put(i);
            }
        }
    }

    static final class Reader extends Task<Object> {
        private final Mailbox<Integer> in;
        private final int count;
        volatile long sum;

        Reader(Mailbox<Integer> in, int count) {
            this.in = in;
            this.count = count;
        }

        @Override
        public void execute() throws Pausable {
            long s = 0;
            for (int i = 0; i < count; i++) {
                s += in.get();
            }
            sum = s;
        }
    }

    /** Select: {@code channels} writers, each on its own mailbox; the reader uses {@code Mailbox.select}. */
    public static long select(Scheduler s, int channels, int perWriter) {
        @SuppressWarnings("unchecked")
        Mailbox<Integer>[] boxes = new Mailbox[channels];
        Task<?>[] tasks = new Task<?>[channels + 1];
        for (int w = 0; w < channels; w++) {
            boxes[w] = channel();
            tasks[w] = new Writer(boxes[w], perWriter);
        }
        Selector selector = new Selector(boxes, channels * perWriter);
        tasks[channels] = selector;
        par(s, tasks);
        return selector.sum;
    }

    static final class Selector extends Task<Object> {
        private final Mailbox<Integer>[] in;
        private final int count;
        volatile long sum;

        Selector(Mailbox<Integer>[] in, int count) {
            this.in = in;
            this.count = count;
        }

        @Override
        public void execute() throws Pausable {
            long s = 0;
            for (int i = 0; i < count; i++) {
                int k = Mailbox.select(in);
                s += in[k].get();
            }
            sum = s;
        }
    }

    // ------------------------------------------------------------------------ spawn+join, blocked processes

    /** Spawns {@code count} tasks that do nothing from a task, and joins each; returns how many ran. */
    public static int spawnJoin(Scheduler s, int count) {
        AtomicInteger ran = new AtomicInteger();
        Spawner spawner = new Spawner(count, ran);
        par(s, spawner);
        return ran.get();
    }

    static final class Spawner extends Task<Object> {
        private final int count;
        private final AtomicInteger ran;

        Spawner(int count, AtomicInteger ran) {
            this.count = count;
            this.ran = ran;
        }

        @Override
        public void execute() throws Pausable {
            Task<?>[] children = new Task<?>[count];
            for (int i = 0; i < count; i++) {
                children[i] = new Noop(ran).start();
            }
            for (Task<?> child : children) {
                child.join();
            }
        }
    }

    static final class Noop extends Task<Object> {
        private final AtomicInteger ran;

        Noop(AtomicInteger ran) {
            this.ran = ran;
        }

        @Override
        public void execute() throws Pausable {
            ran.incrementAndGet();
        }
    }

    /**
     * Starts one task per mailbox ({@code boxes[i]}, made by the caller), each blocked reading its mailbox,
     * into {@code tasks}; each counts itself in {@code started} just before it blocks. {@link #release} lets
     * them end.
     */
    public static void block(Scheduler s, Mailbox<Integer>[] boxes, Task<?>[] tasks, AtomicInteger started) {
        for (int i = 0; i < boxes.length; i++) {
            tasks[i] = new Blocked(boxes[i], started);
            tasks[i].setScheduler(s);
            tasks[i].start();
        }
    }

    /** Sends each blocked task its message and waits for all to end. */
    public static void release(Mailbox<Integer>[] boxes, Task<?>[] tasks) {
        for (Mailbox<Integer> b : boxes) {
            b.putb(1);
        }
        for (Task<?> t : tasks) {
            t.joinb();
        }
    }

    /** A fresh mailbox of the kind the workloads use. */
    public static Mailbox<Integer> mailbox() {
        return channel();
    }

    static final class Blocked extends Task<Object> {
        private final Mailbox<Integer> in;
        private final AtomicInteger started;

        Blocked(Mailbox<Integer> in, AtomicInteger started) {
            this.in = in;
            this.started = started;
        }

        @Override
        public void execute() throws Pausable {
            started.incrementAndGet();
            in.get();
        }
    }
}
