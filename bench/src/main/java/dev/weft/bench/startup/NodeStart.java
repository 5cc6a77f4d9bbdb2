package dev.weft.bench.startup;

import dev.weft.csp.Scheduler;
import dev.weft.net.codec.KryoCodec;
import dev.weft.net.Node;
import dev.weft.net.poll.CarrierLoops;
import java.time.Duration;

/**
 * What a worker JVM pays to start: the processor time (every thread of the process: JIT compilers and the
 * collector included) and the wall time of {@code Scheduler.create} and then of
 * {@code Node.builder().scheduler(s).start()}, in a fresh JVM, as a launched worker starts them. Prints
 * {@code RESULT schedulerCpuMs ...} lines; run it several times and take the medians:
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.weft.bench.startup.NodeStart</pre>
 *
 * Processor time comes from {@link ProcessHandle} (on Linux, /proc/self/stat: 10 ms ticks).
 */
public final class NodeStart {
    private NodeStart() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("steps")) {
            steps();
            return;
        }
        long cpu0 = cpuNanos();
        long wall0 = System.nanoTime();
        Scheduler s = Scheduler.create(Runtime.getRuntime().availableProcessors());
        long cpu1 = cpuNanos();
        long wall1 = System.nanoTime();
        Node node = Node.builder().scheduler(s).start();
        long cpu2 = cpuNanos();
        long wall2 = System.nanoTime();
        System.out.printf("RESULT schedulerCpuMs %d%nRESULT schedulerWallMs %d%nRESULT nodeCpuMs %d%n"
                        + "RESULT nodeWallMs %d%nRESULT weftThreads %d%n", (cpu1 - cpu0) / 1_000_000,
                (wall1 - wall0) / 1_000_000, (cpu2 - cpu1) / 1_000_000, (wall2 - wall1) / 1_000_000, weftThreads());
        node.close();
        s.close();
    }

    /**
     * Where a node's start goes ({@code NodeStart steps}): each part that a node's start does first, timed in
     * turn, so that each pays for the classes it loads first.
     */
    private static void steps() {
        Scheduler s = step("Scheduler.create", () -> Scheduler.create(Runtime.getRuntime().availableProcessors()));
        step("Epoll.isAvailable", io.netty.channel.epoll.Epoll::isAvailable);
        step("new KryoCodec()", KryoCodec::new);
        step("CarrierLoops.of", () -> CarrierLoops.of(s));
        Node node = step("Node.start", () -> Node.builder().scheduler(s).start());
        node.close();
        s.close();
    }

    private static <T> T step(String what, java.util.function.Supplier<T> part) {
        long cpu = cpuNanos();
        long wall = System.nanoTime();
        T made = part.get();
        System.out.printf("STEP %-20s cpu %4d ms, wall %4d ms%n", what, (cpuNanos() - cpu) / 1_000_000,
                (System.nanoTime() - wall) / 1_000_000);
        return made;
    }

    private static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO).toNanos();
    }

    /** The threads of this JVM whose name starts with "weft". */
    private static long weftThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("weft")).count();
    }
}
