package dev.weft.samples.net;

import dev.weft.csp.Parallel;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;

/**
 * A mobile net input: a job queue that starts on node A and is handed over to node B half-way, while two
 * producers on node P keep writing to its one location. A's reader takes half the jobs, then writes the
 * queue itself to B; B's reader takes the rest. Nobody tells the producers: their values follow the queue.
 * Three nodes in this JVM, on loopback. Run: {@code java -cp 'samples/target/classes:samples/target/lib/*'
 * dev.weft.samples.net.HandOver [jobsPerProducer]}.
 */
public final class HandOver {
    private HandOver() {
    }

    /** Hands a queue over while {@code args[0]} (default 10,000) jobs per producer are written to it. */
    public static void main(String[] args) {
        int each = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int[] taken = run(each);
        System.out.printf("node A took %d jobs, node B %d after the hand-over; every job once, in order%n",
                taken[0], taken[1]);
    }

    /**
     * Runs the hand-over; returns how many jobs A and B took.
     *
     * @throws IllegalStateException if a job was lost, taken twice or out of its producer's order
     */
    public static int[] run(int each) {
        int[] taken = new int[2];
        int[] nextOf = new int[2]; // each producer's next job, as the readers see them
        try (Node a = Node.start(); Node b = Node.start(); Node p = Node.start()) {
            NetChannelInput<Integer> jobs = a.net2one(64);
            NetChannelInput<NetChannelInput<Integer>> takeOver = b.net2one();
            NetChannelOutput<NetChannelInput<Integer>> handOver = a.one2net(takeOver.location());
            NetChannelLocation queue = jobs.location();
            NetChannelOutput<Integer> first = p.one2net(queue);
            NetChannelOutput<Integer> second = p.one2net(queue);
            Weft.run(() -> Parallel.run(
                    () -> {
                        for (int i = 0; i < each; i++) {
                            first.write(i); // job i of producer 0
                        }
                    },
                    () -> {
                        for (int i = 0; i < each; i++) {
                            second.write(each + i); // job i of producer 1
                        }
                    },
                    () -> {
                        for (int i = 0; i < each; i++) {
                            check(jobs.read(), each, nextOf);
                            taken[0]++;
                        }
                        handOver.write(jobs); // the queue moves to B, its unread jobs with it
                    },
                    () -> {
                        NetChannelInput<Integer> same = takeOver.read(); // same location, same producers
                        for (int i = 0; i < each; i++) {
                            check(same.read(), each, nextOf);
                            taken[1]++;
                        }
                    }));
        }
        return taken;
    }

    private static void check(int job, int each, int[] nextOf) {
        int producer = job / each;
        if (job % each != nextOf[producer]++) {
            throw new IllegalStateException("job " + job + " came out of order, or twice");
        }
    }
}
