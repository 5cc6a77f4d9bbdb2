package dev.weft.bench.dist;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.jcsp.net2.NetChannelLocation;
import org.jcsp.net2.NetChannelOutput;
import org.jcsp.net2.Networked;
import org.jcsp.net2.Node;
import org.jcsp.net2.NetChannel;
import org.jcsp.net2.tcpip.TCPIPNodeAddress;

/**
 * What the JCSP.net2 peers share: this JVM's JCSP node, and nodes 1 to size - 1 as worker JVMs on this
 * machine. A worker JVM never outlives this one: a shutdown hook destroys any still running.
 */
final class JcspNodes {
    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();
    private static boolean hooked;

    private JcspNodes() {
    }

    /** Starts this JVM's node unless another part of this JVM has (a JCSP node cannot be started twice). */
    static void start() throws Exception {
        synchronized (Node.class) {
            if (Node.getInstance().getNodeID() == null) {
                Node.getInstance().init(new TCPIPNodeAddress("127.0.0.1", 0));
            }
            if (!hooked) {
                Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly)));
                hooked = true;
            }
        }
    }

    /**
     * Starts nodes 1 to {@code size - 1}, each a JVM running {@code main}'s class with the arguments
     * {@code worker <zero> index size args...}.
     */
    static List<Process> startWorkers(Class<?> main, Networked zero, int size, String... args) throws IOException {
        List<Process> workers = new ArrayList<>();
        for (int i = 1; i < size; i++) {
            List<String> command = new ArrayList<>(List.of(System.getProperty("java.home") + File.separator + "bin"
                    + File.separator + "java", "-cp", System.getProperty("java.class.path"), main.getName(), "worker",
                    zero.getLocation().toString(), String.valueOf(i), String.valueOf(size)));
            command.addAll(List.of(args));
            Process p = new ProcessBuilder(command).inheritIO().start();
            RUNNING.add(p);
            workers.add(p);
        }
        return workers;
    }

    /** Waits for the workers to end, destroying any that has not within 10 s. */
    static void reap(List<Process> workers) throws InterruptedException {
        for (Process p : workers) {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            RUNNING.remove(p);
        }
    }

    /** A channel output to the input at {@code location} (null: none). */
    static <T> NetChannelOutput<T> to(String location) throws Exception {
        return location == null ? null : NetChannel.one2net(NetChannelLocation.parse(location));
    }

    /** The location of {@code input} as text (null: none). */
    static String at(Networked input) {
        return input == null ? null : input.getLocation().toString();
    }

    /** Destroys the channels that are not null. */
    static void destroy(Networked... channels) {
        for (Networked c : channels) {
            if (c != null) {
                c.destroy();
            }
        }
    }
}
