package dev.weft.bench.dist;

import dev.weft.samples.dist.Tsp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jcsp.lang.CSProcess;
import org.jcsp.lang.ChannelInput;
import org.jcsp.lang.ChannelOutput;
import org.jcsp.lang.Parallel;
import org.jcsp.net2.NetAltingChannelInput;
import org.jcsp.net2.NetChannel;
import org.jcsp.net2.NetChannelOutput;

/**
 * The peer of Weft's {@link Tsp} on JCSP.net2 1.1-rc5: the same farm, work and search ({@link Tsp#jobs},
 * {@link Tsp.Search}), node 0 in this JVM and the others in JVMs it starts. A searcher's request carries its
 * node's index and the best length it knows; the farmer replies on that node's job channel and broadcasts a
 * better length to every node's bound reader. Wired by hand: each worker sends node 0 the locations of its
 * job and bound inputs, and says when it has heard all node 0 sends, so that it exits only after node 0's last
 * write has completed.
 */
public final class JcspTsp {
    private JcspTsp() {
    }

    /** A worker: {@code worker <node 0's input> index size <the farmer's requests> cities}. */
    public static void main(String[] args) throws Exception {
        JcspNodes.start();
        NetChannelOutput<String[]> toZero = JcspNodes.to(args[1]);
        NetAltingChannelInput<int[]> jobs = NetChannel.net2one();
        NetAltingChannelInput<Integer> bounds = NetChannel.net2one();
        toZero.write(new String[] {args[2], JcspNodes.at(jobs), JcspNodes.at(bounds)});
        int[][] dist = Tsp.distances(Integer.parseInt(args[5]));
        AtomicInteger best = new AtomicInteger(Integer.MAX_VALUE);
        NetChannelOutput<int[]> requests = JcspNodes.to(args[4]);
        new Parallel(new CSProcess[] {
            () -> search(Integer.parseInt(args[2]), dist, best, requests, jobs),
            () -> readBounds(bounds, best)}).run();
        // A read's acknowledgement is only queued when read returns: exiting now could lose the last bound's,
        // and node 0's write would fail. Node 0 reads this after its acknowledgement, which this link carries first.
        toZero.write(new String[] {args[2]});
        System.exit(0); // a JCSP node cannot be stopped
    }

    /** Runs on {@code size} nodes (1: this JVM alone); returns the length of the shortest tour. */
    public static int run(int size, int cities) throws Exception {
        JcspNodes.start();
        int[][] dist = Tsp.distances(cities);
        NetAltingChannelInput<String[]> fromWorkers = NetChannel.net2one();
        NetAltingChannelInput<int[]> requests = NetChannel.net2one();
        List<Process> workers = JcspNodes.startWorkers(JcspTsp.class, fromWorkers, size, JcspNodes.at(requests),
                String.valueOf(cities));
        try {
            NetAltingChannelInput<int[]> jobs = NetChannel.net2one();
            NetAltingChannelInput<Integer> bounds = NetChannel.net2one();
            String[][] hello = new String[size][];
            hello[0] = new String[] {"0", JcspNodes.at(jobs), JcspNodes.at(bounds)};
            for (int k = 1; k < size; k++) {
                String[] h = fromWorkers.read();
                hello[Integer.parseInt(h[0])] = h;
            }
            List<NetChannelOutput<int[]>> jobOf = new ArrayList<>();
            List<NetChannelOutput<Integer>> boundOf = new ArrayList<>();
            for (String[] h : hello) {
                jobOf.add(JcspNodes.to(h[1]));
                boundOf.add(JcspNodes.to(h[2]));
            }
            NetChannelOutput<int[]> request = JcspNodes.to(JcspNodes.at(requests));
            AtomicInteger best = new AtomicInteger(Integer.MAX_VALUE);
            int[] result = new int[1];
            new Parallel(new CSProcess[] {
                () -> result[0] = farm(dist.length, requests, jobOf, boundOf),
                () -> search(0, dist, best, request, jobs),
                () -> readBounds(bounds, best)}).run();
            for (int k = 1; k < size; k++) {
                fromWorkers.read(); // a worker's last word: it may exit now
            }
            jobOf.forEach(JcspNodes::destroy);
            boundOf.forEach(JcspNodes::destroy);
            JcspNodes.destroy(request, jobs, bounds, requests, fromWorkers);
            return result[0];
        } finally {
            JcspNodes.reap(workers);
        }
    }

    /**
     * Hands out {@link Tsp#jobs} in order; takes the best length each request reports and broadcasts a better
     * one to every node; ends when every searcher has heard there is no more work.
     */
    private static int farm(int n, ChannelInput<int[]> requests, List<? extends ChannelOutput<int[]>> jobOf,
                            List<? extends ChannelOutput<Integer>> boundOf) {
        List<int[]> work = Tsp.jobs(n);
        int best = Integer.MAX_VALUE;
        int next = 0;
        int stopped = 0;
        while (stopped < jobOf.size()) {
            int[] request = requests.read(); // {node, best length it knows}
            if (request[1] < best) {
                best = request[1];
                for (ChannelOutput<Integer> out : boundOf) {
                    out.write(best);
                }
            }
            if (next < work.size()) {
                int[] job = work.get(next++);
                int[] reply = new int[1 + job.length];
                reply[0] = best;
                System.arraycopy(job, 0, reply, 1, job.length);
                jobOf.get(request[0]).write(reply);
            } else {
                jobOf.get(request[0]).write(new int[] {best});
                stopped++;
            }
        }
        for (ChannelOutput<Integer> out : boundOf) {
            out.write(-1); // the bound readers end
        }
        return best;
    }

    /** A node's searcher: asks for tours to complete until there are none. */
    private static void search(int node, int[][] dist, AtomicInteger best, ChannelOutput<int[]> requests,
                               ChannelInput<int[]> jobs) {
        Tsp.Search s = new Tsp.Search(dist, best);
        for (;;) {
            requests.write(new int[] {node, best.get()});
            int[] job = jobs.read();
            best.accumulateAndGet(job[0], Math::min);
            if (job.length == 1) {
                return;
            }
            s.complete(Arrays.copyOfRange(job, 1, job.length));
        }
    }

    /** A node's bound reader: lowers the best length to each one broadcast, until -1. */
    private static void readBounds(ChannelInput<Integer> bounds, AtomicInteger best) {
        for (int b = bounds.read(); b >= 0; b = bounds.read()) {
            best.accumulateAndGet(b, Math::min);
        }
    }
}
