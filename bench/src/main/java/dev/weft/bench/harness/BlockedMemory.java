package dev.weft.bench.harness;

import dev.weft.bench.WeftWorkloads;
import dev.weft.bench.kilim.KilimWorkloads;
import dev.weft.bench.peers.ThreadStarter;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Scheduler;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.atomic.AtomicInteger;
import kilim.Mailbox;
import kilim.Task;

/**
 * Bytes per blocked process: starts {@code count} processes of one peer, each blocked reading its own channel,
 * and compares the heap in use (after full collections) before and after. Run in a fresh JVM with a fixed heap,
 * one peer per JVM (a first small run, not counted, loads what every run shares: classes, the runtime's event
 * types):
 *
 * <pre>java -Xms3g -Xmx3g -XX:+UseSerialGC -cp bench/target/benchmarks.jar dev.weft.bench.harness.BlockedMemory PEER COUNT [with|alone]</pre>
 *
 * <p>PEER is weft, kilim, jcsp, threads or virtualThreads. Two figures per peer: the process with its channel
 * (channels made after the baseline), and the process alone (channels made before it). Arrays holding the
 * channels and handles are made before the baseline. For platform threads (threads, JCSP) the heap misses the
 * thread stacks, which live outside it, so the growth of the resident set is reported too.
 */
public final class BlockedMemory {
    private BlockedMemory() {
    }

    /**
     * Measures one peer: {@code args[0]} the peer, {@code args[1]} how many processes, {@code args[2]}
     * (optional) {@code with} or {@code alone} for one of the two figures (each is cleanest in a JVM of its
     * own; run.sh does that), both if absent.
     */
    public static void main(String[] args) throws Exception {
        String peer = args[0];
        int count = Integer.parseInt(args[1]);
        boolean[] variants = args.length < 3 ? new boolean[] {true, false}
                : new boolean[] {args[2].equals("with")};
        for (boolean withChannel : variants) {
            measure(peer, Math.min(count, 1000), withChannel); // loads and sets up once what every run shares
            long[] m = measure(peer, count, withChannel);
            String key = (withChannel ? "blocked." : "blockedAlone.") + peer;
            Measure.result(key, String.format("%.0f", (double) (m[1] - m[0]) / count));
            if (withChannel) {
                Measure.result(key + ".count", count);
                if (m[3] > 0) {
                    Measure.result(key + ".rss", String.format("%.0f", (double) (m[3] - m[2]) / count));
                }
            }
        }
    }

    /** Returns {heap before, heap after, rss before, rss after}. */
    @SuppressWarnings("unchecked")
    static long[] measure(String peer, int count, boolean withChannel) throws Exception {
        long[] m = new long[4];
        switch (peer) {
            case "weft": {
                One2OneChannel<Integer>[] channels = new One2OneChannel[count];
                if (!withChannel) {
                    for (int i = 0; i < count; i++) {
                        channels[i] = dev.weft.csp.Channel.one2one();
                    }
                }
                long[] heap = new long[2];
                try (Scheduler s = Scheduler.singleThreaded()) {
                    WeftWorkloads.weighBlocked(s, channels, Measure::heap, Measure::heap, heap);
                }
                m[0] = heap[0];
                m[1] = heap[1];
                break;
            }
            case "kilim": {
                Mailbox<Integer>[] boxes = new Mailbox[count];
                Task<?>[] tasks = new Task<?>[count];
                if (!withChannel) {
                    for (int i = 0; i < count; i++) {
                        boxes[i] = KilimWorkloads.mailbox();
                    }
                }
                kilim.Scheduler s = KilimWorkloads.scheduler(1);
                AtomicInteger started = new AtomicInteger();
                m[0] = Measure.heap();
                for (int i = 0; i < count; i++) {
                    if (boxes[i] == null) {
                        boxes[i] = KilimWorkloads.mailbox();
                    }
                }
                KilimWorkloads.block(s, boxes, tasks, started);
                Measure.awaitCount(started, count);
                m[1] = Measure.heap();
                KilimWorkloads.release(boxes, tasks);
                s.shutdown();
                break;
            }
            case "threads":
            case "virtualThreads": {
                ThreadStarter starter = peer.equals("threads") ? ThreadStarter.PLATFORM : ThreadStarter.VIRTUAL;
                SynchronousQueue<Integer>[] queues = new SynchronousQueue[count];
                Thread[] threads = new Thread[count];
                if (!withChannel) {
                    for (int i = 0; i < count; i++) {
                        queues[i] = new SynchronousQueue<>();
                    }
                }
                AtomicInteger started = new AtomicInteger();
                m[0] = Measure.heap();
                m[2] = Measure.rss();
                for (int i = 0; i < count; i++) {
                    if (queues[i] == null) {
                        queues[i] = new SynchronousQueue<>();
                    }
                    SynchronousQueue<Integer> q = queues[i];
                    threads[i] = starter.start(() -> {
                        started.incrementAndGet();
                        try {
                            q.take();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    });
                }
                Measure.awaitCount(started, count);
                m[1] = Measure.heap();
                m[3] = peer.equals("threads") ? Measure.rss() : -1;
                for (SynchronousQueue<Integer> q : queues) {
                    q.put(1);
                }
                for (Thread t : threads) {
                    t.join();
                }
                break;
            }
            case "jcsp": {
                org.jcsp.lang.One2OneChannel<Integer>[] channels = new org.jcsp.lang.One2OneChannel[count];
                org.jcsp.lang.ProcessManager[] managers = new org.jcsp.lang.ProcessManager[count];
                if (!withChannel) {
                    for (int i = 0; i < count; i++) {
                        channels[i] = org.jcsp.lang.Channel.one2one();
                    }
                }
                AtomicInteger started = new AtomicInteger();
                m[0] = Measure.heap();
                m[2] = Measure.rss();
                for (int i = 0; i < count; i++) {
                    if (channels[i] == null) {
                        channels[i] = org.jcsp.lang.Channel.one2one();
                    }
                    org.jcsp.lang.ChannelInput<Integer> in = channels[i].in();
                    managers[i] = new org.jcsp.lang.ProcessManager(() -> {
                        started.incrementAndGet();
                        in.read();
                    });
                    managers[i].start();
                }
                Measure.awaitCount(started, count);
                m[1] = Measure.heap();
                m[3] = Measure.rss();
                for (org.jcsp.lang.One2OneChannel<Integer> c : channels) {
                    c.out().write(1);
                }
                for (org.jcsp.lang.ProcessManager pm : managers) {
                    pm.join();
                }
                break;
            }
            default:
                throw new IllegalArgumentException("unknown peer " + peer + ": weft, kilim, jcsp, threads, virtualThreads");
        }
        return m;
    }
}
