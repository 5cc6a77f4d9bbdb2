package dev.weft.samples.net;

import dev.weft.csp.CSProcess;
import dev.weft.csp.ConnectionClient;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.NetConnectionServer;
import dev.weft.net.Node;
import dev.weft.net.NodeAddress;
import java.time.Duration;

/**
 * A farm over several JVMs: the farmer (this JVM, also the name server) hands out ranges of numbers through
 * a connection server; workers in JVMs of their own each run a few fibers that ask for a range, count the
 * primes in it, and send the count back on a net channel; the farmer adds them up. Any number of
 * worker JVMs may join: each asks for work until the farmer says there is none left.
 *
 * <p>Run, after {@code mvn -q -B package -DskipTests}: {@code java -cp 'samples/target/classes:samples/target/lib/*'
 * dev.weft.samples.net.DistributedFarm [limit workerJvms]}. It starts the worker JVMs itself.
 */
public final class DistributedFarm {
    /** How many numbers a job covers. */
    static final int JOB = 20_000;
    /** How many fibers each worker JVM runs. */
    static final int FIBERS_PER_WORKER = 2;
    private static final long[] NO_MORE_WORK = new long[0];

    private DistributedFarm() {
    }

    /** With no role: counts the primes below {@code args[0]} (default 2,000,000) with {@code args[1]} worker JVMs (default 2). */
    public static void main(String[] args) throws Exception {
        if (args.length == 2 && args[0].equals("worker")) {
            work(NodeAddress.parse(args[1]));
            return;
        }
        long limit = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000;
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        long start = System.nanoTime();
        long primes = countPrimes(limit, workers);
        System.out.printf("Distributed farm: %d primes below %d, %d worker JVMs x %d fibers, %d ms%n", primes, limit,
                workers, FIBERS_PER_WORKER, (System.nanoTime() - start) / 1_000_000);
    }

    /** The number of primes below {@code limit}, counted by {@code workers} worker JVMs. */
    public static long countPrimes(long limit, int workers) throws Exception {
        try (Node node = Node.builder().serveNames().start(); Jvms jvms = new Jvms();
             Scheduler s = Scheduler.create(1)) {
            NetConnectionServer<String, long[]> jobs = node.connectionServer("farm.jobs");
            NetChannelInput<Long> results = node.net2one("farm.results");
            for (int w = 0; w < workers; w++) {
                jvms.start(DistributedFarm.class, "worker", node.address().toString());
            }
            long jobCount = (limit + JOB - 1) / JOB;
            long[] total = new long[1];
            Weft.run(s, () -> Parallel.run(
                    () -> handOut(jobs, limit, workers * FIBERS_PER_WORKER),
                    () -> {
                        for (long j = 0; j < jobCount; j++) {
                            total[0] += results.read();
                        }
                    }));
            if (!jvms.awaitAll(60)) {
                throw new IllegalStateException("a worker JVM did not end cleanly");
            }
            return total[0];
        }
    }

    /** Answers each request with the next range, then with no more work until every worker fiber has heard it. */
    @Pausable
    private static void handOut(NetConnectionServer<String, long[]> jobs, long limit, int workerFibers) {
        long next = 0;
        int stopped = 0;
        while (stopped < workerFibers) {
            jobs.accept();
            if (next < limit) {
                jobs.reply(new long[] {next, Math.min(limit, next + JOB)});
                next += JOB;
            } else {
                jobs.reply(NO_MORE_WORK);
                stopped++;
            }
        }
    }

    /** A worker JVM: a few fibers that each ask for ranges until there are none. */
    private static void work(NodeAddress farmer) {
        try (Node node = Node.builder().nameServer(farmer).start(); Scheduler s = Scheduler.create(2)) {
            Weft.run(s, () -> {
                CSProcess[] fibers = new CSProcess[FIBERS_PER_WORKER];
                for (int i = 0; i < fibers.length; i++) {
                    fibers[i] = () -> {
                        ConnectionClient<String, long[]> jobs = node.connectionClient("farm.jobs");
                        NetChannelOutput<Long> results = node.one2net("farm.results", Duration.ofSeconds(60));
                        for (;;) {
                            long[] range = jobs.request("work please");
                            if (range.length == 0) {
                                return;
                            }
                            results.write(primesIn(range[0], range[1]));
                        }
                    };
                }
                Parallel.run(fibers);
            });
        }
    }

    /** The number of primes in [from, to), by trial division: the work is the point. */
    static long primesIn(long from, long to) {
        long count = 0;
        for (long n = Math.max(2, from); n < to; n++) {
            boolean prime = true;
            for (long d = 2; d * d <= n; d++) {
                if (n % d == 0) {
                    prime = false;
                    break;
                }
            }
            if (prime) {
                count++;
            }
        }
        return count;
    }
}
