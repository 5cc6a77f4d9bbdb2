package dev.weft.net.netns;

import dev.weft.csp.ConnectionClient;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetConnectionServer;
import dev.weft.net.launch.Cluster;
import dev.weft.net.launch.NetProgram;
import java.util.BitSet;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A farm: node 0 hands out numbered jobs through a connection server; each other node asks for a job, works it
 * out, and hands the answer in with its next request, numbering its requests. Node 0 checks every answer, that
 * each job was answered exactly once and that each worker's requests came in their order. It hands out jobs for
 * {@code args[0]} ms (and until node 1's bulk value of {@code args[1]} bytes, if any, has come: see
 * {@link Running}).
 */
public final class NetnsFarm implements NetProgram<String> {
    private static final long[] NO_MORE_WORK = new long[0];

    @Override
    @Pausable
    public String run(Cluster c) {
        int minMillis = c.intArg(0, 5000);
        int bulk = c.intArg(1, 0);
        if (c.index() == 0) {
            return farmer(c, minMillis, bulk);
        }
        ConnectionClient<long[], long[]> jobs = c.node().connectionClient("farm.jobs");
        Parallel.run(() -> work(c.index(), jobs), () -> {
            if (c.index() == 1) {
                Bulk.send(c, bulk);
            }
        });
        return null;
    }

    /** Asks for jobs until there are none: {index, request number} first, then {index, number, job, answer}. */
    @Pausable
    private static void work(int index, ConnectionClient<long[], long[]> jobs) {
        long[] request = {index, 0};
        for (long n = 1; ; n++) {
            long[] job = jobs.request(request);
            if (job.length == 0) {
                return;
            }
            request = new long[] {index, n, job[0], answer(job[0])};
        }
    }

    private static long answer(long job) {
        return job * job + 7;
    }

    @Pausable
    private static String farmer(Cluster c, int minMillis, int bulkBytes) {
        NetConnectionServer<long[], long[]> jobs = c.node().connectionServer("farm.jobs");
        NetChannelInput<byte[]> bulk = c.node().net2one(Bulk.NAME);
        long start = System.nanoTime();
        AtomicBoolean bulkDone = new AtomicBoolean(bulkBytes == 0);
        String[] bulkNote = {""};
        long[] handedOut = {0};
        Parallel.run(
                () -> {
                    long[] nextRequest = new long[c.size()];
                    BitSet answered = new BitSet();
                    int stopped = 0;
                    while (stopped < c.size() - 1) {
                        long[] q = jobs.accept();
                        int w = (int) q[0];
                        if (q[1] != nextRequest[w]) {
                            throw new IllegalStateException("request " + q[1] + " of node " + w + " came where "
                                    + nextRequest[w] + " was due: a request lost, repeated or out of order");
                        }
                        nextRequest[w]++;
                        if (q.length == 4) {
                            if (q[3] != answer(q[2]) || answered.get((int) q[2])) {
                                throw new IllegalStateException("job " + q[2] + " answered " + q[3]
                                        + (answered.get((int) q[2]) ? " a second time" : ", which is wrong"));
                            }
                            answered.set((int) q[2]);
                        }
                        if (!Running.mayEnd(handedOut[0], bulkDone.get(), start, minMillis)) {
                            jobs.reply(new long[] {handedOut[0]++});
                            Running.counted(handedOut[0]);
                        } else {
                            jobs.reply(NO_MORE_WORK);
                            stopped++;
                        }
                    }
                    if (answered.cardinality() != handedOut[0]) {
                        throw new IllegalStateException(handedOut[0] + " jobs handed out, " + answered.cardinality() + " answered");
                    }
                },
                () -> {
                    if (bulkBytes > 0) {
                        bulkNote[0] = Bulk.receive(bulk, bulkBytes, start);
                        bulkDone.set(true);
                    }
                });
        return handedOut[0] + " jobs, each answered once, every worker's requests in order" + bulkNote[0];
    }
}
