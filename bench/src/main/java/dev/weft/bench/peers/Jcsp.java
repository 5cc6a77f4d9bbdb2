package dev.weft.bench.peers;

import dev.weft.samples.Mandelbrot;
import org.jcsp.lang.Alternative;
import org.jcsp.lang.AltingChannelInput;
import org.jcsp.lang.Any2OneChannel;
import org.jcsp.lang.CSProcess;
import org.jcsp.lang.Channel;
import org.jcsp.lang.ChannelInput;
import org.jcsp.lang.ChannelOutput;
import org.jcsp.lang.Guard;
import org.jcsp.lang.One2AnyChannel;
import org.jcsp.lang.One2OneChannel;
import org.jcsp.lang.Parallel;
import org.jcsp.lang.ProcessManager;

/**
 * The workloads written for JCSP 1.1-rc5: each process is a JCSP {@link CSProcess}, run by a JCSP
 * {@link Parallel} (one platform thread per process), over JCSP's synchronous channels. Processes end after a
 * known number of messages (or on an end marker), so no poison is needed.
 */
public final class Jcsp {
    private static final Integer STOP = Integer.MIN_VALUE;

    private Jcsp() {
    }

    /** Runs the processes in parallel and releases the threads JCSP keeps for a re-run. */
    static void par(CSProcess... processes) {
        Parallel p = new Parallel(processes);
        p.run();
        p.releaseAllThreads();
    }

    /** CommsTime: {@code cycles} measured cycles (plus one warm-up cycle). */
    public static void commsTime(int cycles) {
        int m = cycles + 1;
        One2OneChannel<Integer> a = Channel.one2one();
        One2OneChannel<Integer> b = Channel.one2one();
        One2OneChannel<Integer> c = Channel.one2one();
        One2OneChannel<Integer> d = Channel.one2one();
        ChannelOutput<Integer> aOut = a.out();
        ChannelInput<Integer> aIn = a.in();
        ChannelOutput<Integer> bOut = b.out();
        ChannelInput<Integer> bIn = b.in();
        ChannelOutput<Integer> cOut = c.out();
        ChannelInput<Integer> cIn = c.in();
        ChannelOutput<Integer> dOut = d.out();
        ChannelInput<Integer> dIn = d.in();
        par(() -> { // prefix
            aOut.write(0);
            for (int i = 1; i < m; i++) {
                aOut.write(cIn.read());
            }
        }, () -> { // delta
            for (int i = 0; i < m; i++) {
                Integer v = aIn.read();
                bOut.write(v);
                dOut.write(v);
            }
        }, () -> { // successor
            for (int i = 0; i < m; i++) {
                Integer v = bIn.read();
                if (i < m - 1) {
                    cOut.write(v + 1);
                }
            }
        }, () -> { // consumer
            for (int i = 0; i < m; i++) {
                dIn.read();
            }
        });
    }

    /** Token ring: returns the round trips counted. */
    public static int tokenRing(int elements, int tokens, int roundTrips) {
        @SuppressWarnings("unchecked")
        One2OneChannel<Integer>[] links = new One2OneChannel[elements];
        for (int i = 0; i < elements; i++) {
            links[i] = Channel.one2one();
        }
        int[] counted = new int[1];
        CSProcess[] ps = new CSProcess[elements];
        ps[0] = () -> {
            ChannelInput<Integer> in = links[0].in();
            ChannelOutput<Integer> out = links[1].out();
            for (int t = 0; t < tokens; t++) {
                out.write(t);
            }
            int inFlight = tokens;
            int arrived = 0;
            while (inFlight > 0) {
                Integer token = in.read();
                inFlight--;
                arrived++;
                if (arrived + inFlight < roundTrips) {
                    out.write(token);
                    inFlight++;
                }
            }
            out.write(STOP);
            in.read();
            counted[0] = arrived;
        };
        for (int i = 1; i < elements; i++) {
            ChannelInput<Integer> in = links[i].in();
            ChannelOutput<Integer> out = links[(i + 1) % elements].out();
            ps[i] = () -> {
                for (;;) {
                    Integer v = in.read();
                    out.write(v);
                    if (v == STOP) {
                        return;
                    }
                }
            };
        }
        par(ps);
        return counted[0];
    }

    /** Mandelbrot farm with {@code workers} worker processes; returns the image's rows. */
    public static int[][] mandelbrot(int workers, int width, int height, int maxIter) {
        One2AnyChannel<Integer> jobs = Channel.one2any();
        Any2OneChannel<Object[]> results = Channel.any2one();
        int[][] image = new int[height][];
        CSProcess[] ps = new CSProcess[workers + 2];
        ps[0] = () -> {
            for (int y = 0; y < height; y++) {
                jobs.out().write(y);
            }
            for (int w = 0; w < workers; w++) {
                jobs.out().write(-1);
            }
        };
        ps[1] = () -> {
            for (int i = 0; i < height; i++) {
                Object[] r = results.in().read();
                image[(Integer) r[0]] = (int[]) r[1];
            }
        };
        for (int w = 0; w < workers; w++) {
            ps[w + 2] = () -> {
                for (int y = jobs.in().read(); y >= 0; y = jobs.in().read()) {
                    results.out().write(new Object[] {y, Mandelbrot.row(y, width, height, maxIter)});
                }
            };
        }
        par(ps);
        return image;
    }

    /** Fan-in: {@code writers} processes each write {@code perWriter} values to one any-to-one channel. */
    public static long fanIn(int writers, int perWriter) {
        Any2OneChannel<Integer> channel = Channel.any2one();
        long[] sum = new long[1];
        CSProcess[] ps = new CSProcess[writers + 1];
        for (int w = 0; w < writers; w++) {
            ps[w] = () -> {
                for (int i = 1; i <= perWriter; i++) {
                    channel.out().write(i);
                }
            };
        }
        ps[writers] = () -> {
            long s = 0;
            for (int i = 0; i < writers * perWriter; i++) {
                s += channel.in().read();
            }
            sum[0] = s;
        };
        par(ps);
        return sum[0];
    }

    /** Select: {@code channels} writers, each on its own channel; the reader alternates fairly over all. */
    public static long select(int channels, int perWriter) {
        @SuppressWarnings("unchecked")
        One2OneChannel<Integer>[] cs = new One2OneChannel[channels];
        Guard[] guards = new Guard[channels];
        for (int i = 0; i < channels; i++) {
            cs[i] = Channel.one2one();
            guards[i] = cs[i].in();
        }
        long[] sum = new long[1];
        CSProcess[] ps = new CSProcess[channels + 1];
        for (int w = 0; w < channels; w++) {
            ChannelOutput<Integer> out = cs[w].out();
            ps[w] = () -> {
                for (int i = 1; i <= perWriter; i++) {
                    out.write(i);
                }
            };
        }
        ps[channels] = () -> {
            Alternative alt = new Alternative(guards);
            long s = 0;
            for (int i = 0; i < channels * perWriter; i++) {
                int k = alt.fairSelect();
                s += ((AltingChannelInput<Integer>) guards[k]).read();
            }
            sum[0] = s;
        };
        par(ps);
        return sum[0];
    }

    /** Spawn and join {@code count} JCSP processes that do nothing, each with its own ProcessManager. */
    public static int spawnJoin(int count) {
        java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
        ProcessManager[] managers = new ProcessManager[count];
        for (int i = 0; i < count; i++) {
            managers[i] = new ProcessManager(ran::incrementAndGet);
            managers[i].start();
        }
        for (ProcessManager m : managers) {
            m.join();
        }
        return ran.get();
    }
}
