package dev.weft.net.launch;

import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Runs a {@link NetProgram} on a network of nodes: this JVM is node 0 (and the name server); the others are
 * worker JVMs that the launcher starts on this machine, and any started by hand elsewhere
 * ({@link WorkerMain}) or over ssh ({@link Builder#sshHosts}); under a cluster engine that starts every task itself
 * (Slurm, Kubernetes), each task runs {@link ClusterTask} instead. It waits for every node to join, runs the program on all of them, returns node 0's
 * result, and shuts everything down. If a node dies, is lost (heartbeats) or fails its part, the run is
 * aborted within the heartbeat timeout: the remaining workers are stopped, the JVMs it started destroyed,
 * and {@link #run} throws a {@link LaunchException} naming the node.
 *
 * <pre>{@code
 * long primes = Launcher.builder().nodes(4).build().run(CountPrimes.class, "1000000");
 * }</pre>
 *
 * From a shell: {@code java -cp <class path> dev.weft.net.launch.Launcher <nodes> <program class> [args...]}
 * prints the result, or the failure and exits with 1.
 *
 * <p>The worker JVMs it starts on this machine start from a class-data archive of its class path (a class path of
 * jars, on HotSpot), which the first launch that finds none records: kept in {@code -Dweft.launch.archiveDir}
 * (default {@code ~/.cache/weft/class-data}), turned off by {@code -Dweft.launch.archive=false}; see
 * docs/startup.md.
 */
public final class Launcher {
    private final Builder config;

    private Launcher(Builder config) {
        this.config = config;
    }

    /** A builder of a launcher; its defaults: one node, bound to 127.0.0.1, a heartbeat of 1 s / 5 s. */
    public static Builder builder() {
        return new Builder();
    }

    /** Runs {@code program} on {@code args[0]} nodes with {@code args[2..]}; prints its result. */
    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: Launcher <nodes> <program class> [args...]");
            System.exit(2);
        }
        runAndPrint(builder().nodes(Integer.parseInt(args[0])).build(), args[1], List.of(args).subList(2, args.length));
    }

    /** Runs {@code programClass} with {@code args} and prints its result; prints the failure and exits with 1 if it fails. */
    static void runAndPrint(Launcher launcher, String programClass, List<String> args) {
        try {
            Object result = launcher.run(programClass(programClass), args.toArray(new String[0]));
            String shown = Arrays.deepToString(new Object[] {result}); // arrays by their elements
            System.out.println(shown.substring(1, shown.length() - 1));
        } catch (LaunchException e) {
            System.err.println(e.getMessage());
            System.exit(1);
        }
    }

    /** Hands the heartbeat of system property {@code weft.heartbeat} ("interval ms,timeout ms"), if set, to {@code set}. */
    static void heartbeatProperty(BiConsumer<Duration, Duration> set) {
        String heartbeat = System.getProperty("weft.heartbeat");
        if (heartbeat != null) {
            String[] ms = heartbeat.split(",");
            set.accept(Duration.ofMillis(Long.parseLong(ms[0].trim())), Duration.ofMillis(Long.parseLong(ms[1].trim())));
        }
    }

    /**
     * Runs {@code program} on every node and returns node 0's result; every node is shut down when it returns.
     *
     * @throws LaunchException if a node died, was lost, failed its part, or did not join in time
     */
    public <R> R run(Class<? extends NetProgram<R>> program, String... args) {
        try (LaunchRun<R> run = new LaunchRun<>(this, config, program, List.of(args))) {
            return run.run();
        }
    }

    /**
     * The JVMs this machine runs for a launch: {@code java [this JVM's AOT cache] [classData] [Netty's flight-recorder
     * events off, unless jvmArgs start a recording] [native access: see nativeAccess] [jvmArgs] -cp <this class path> WorkerMain ...}, where
     * {@code classData} are a {@link ClassDataArchive}'s options.
     */
    List<String> workerCommand(String launcher, String programClass, List<String> classData) {
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("java.home") + File.separator + "bin" + File.separator + "java");
        cmd.addAll(AotCacheFlags.ofThisJvm());
        cmd.addAll(classData); // before the user's options, so that a -Xlog of theirs wins over its quiet logging
        if (config.jvmArgs.stream().noneMatch(a -> a.startsWith("-XX:StartFlightRecording"))) {
            // Netty's buffers announce flight-recorder events: the first one's class sets the recorder's
            // machinery going (some 200 classes, a few hundred milliseconds of processor time) in a JVM that
            // records nothing. Before the user's options: a -Dio.netty.jfr.enabled=true of theirs wins.
            cmd.add("-Dio.netty.jfr.enabled=false");
        }
        cmd.addAll(nativeAccess(config.jvmArgs));
        cmd.addAll(config.jvmArgs);
        cmd.add("-Dweft.heartbeat=" + config.heartbeatInterval.toMillis() + "," + config.heartbeatTimeout.toMillis());
        cmd.add("-Dweft.joinWait=" + config.joinTimeout.toMillis()); // then this launcher has given up on it
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(WorkerMain.class.getName());
        cmd.add(launcher);
        cmd.add(programClass);
        return cmd;
    }

    /**
     * Native access for the class path, unless {@code jvmArgs} grant it themselves: Netty's epoll transport loads a
     * native library, which JDK 24 and later warn about (JEP 472) unless the code that loads it may; JDK 17 to 23
     * accept the option and need none.
     */
    static List<String> nativeAccess(List<String> jvmArgs) {
        return jvmArgs.stream().anyMatch(a -> a.startsWith("--enable-native-access")) ? List.of()
                : List.of("--enable-native-access=ALL-UNNAMED");
    }

    /** The class-data archive of this machine's workers: see {@link ClassDataArchive}. */
    ClassDataArchive classDataArchive() {
        List<String> workerJvmArgs = new ArrayList<>(AotCacheFlags.ofThisJvm());
        workerJvmArgs.addAll(config.jvmArgs);
        return ClassDataArchive.forWorkers(workerJvmArgs);
    }

    private static boolean isLoopback(String host) {
        return host.equals("localhost") || host.startsWith("127.") || host.equals("::1");
    }

    @SuppressWarnings("unchecked")
    private static <R> Class<? extends NetProgram<R>> programClass(String name) {
        return (Class<? extends NetProgram<R>>) instantiate(name).getClass();
    }

    /** The program {@code className}, made with its public no-argument constructor. */
    static NetProgram<?> instantiate(String className) {
        try {
            return Class.forName(className).asSubclass(NetProgram.class).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new IllegalArgumentException(className + " is not a NetProgram with a public no-argument"
                    + " constructor on the class path: " + e, e);
        }
    }

    /** How a launch is set up. */
    public static final class Builder {
        int localNodes = 1;
        int remoteNodes;
        String host = "127.0.0.1";
        int port;
        Duration heartbeatInterval = Duration.ofSeconds(1);
        Duration heartbeatTimeout = Duration.ofSeconds(5);
        Duration joinTimeout = Duration.ofSeconds(60);
        final List<String> jvmArgs = new ArrayList<>();
        final List<String> sshHosts = new ArrayList<>();
        final List<String> sshOptions = new ArrayList<>();
        String sshJava = "java";
        boolean shipClassPath = true;

        private Builder() {
        }

        /** Run on {@code n} nodes on this machine: this JVM and {@code n - 1} worker JVMs it starts. */
        public Builder nodes(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("a run needs at least one node, got " + n);
            }
            this.localNodes = n;
            return this;
        }

        /** Wait also for {@code n} workers started by hand (on other machines) before running. */
        public Builder remoteNodes(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("remote nodes cannot be " + n);
            }
            this.remoteNodes = n;
            return this;
        }

        /** Node 0 listens on {@code host:port} (0: a free port); workers elsewhere are given this address. */
        public Builder bind(String host, int port) {
            this.host = Objects.requireNonNull(host, "host");
            this.port = port;
            return this;
        }

        /** Every node's heartbeat (see {@code Node.Builder.heartbeat}): a lost node is noticed within timeout. */
        public Builder heartbeat(Duration interval, Duration timeout) {
            this.heartbeatInterval = Objects.requireNonNull(interval, "interval");
            this.heartbeatTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** How long to wait for every node to join; default 60 s. */
        public Builder joinTimeout(Duration d) {
            this.joinTimeout = Objects.requireNonNull(d, "joinTimeout");
            return this;
        }

        /** Options for the worker JVMs this machine starts, e.g. {@code -Xmx1g}. */
        public Builder jvmArgs(String... args) {
            jvmArgs.addAll(List.of(args));
            return this;
        }

        /**
         * Run a worker on each of {@code hosts} ({@code host} or {@code user@host}; a host named twice runs two)
         * with {@code ssh host java ... WorkerMain}, beside the local ones, numbered in order after them (with
         * {@code nodes(1)}, the first host is node 1): ssh must log in without a password
         * ({@code BatchMode}), and node 0 must {@link #bind} to an address the hosts reach. Each worker listens on
         * its host name as given here. See {@link #sharedClassPath} for how the class path gets there.
         */
        public Builder sshHosts(String... hosts) {
            for (String h : hosts) {
                if (h.isBlank() || h.contains(" ")) {
                    throw new IllegalArgumentException("'" + h + "' is not an ssh host: give host or user@host,"
                            + " and ssh options to sshOptions");
                }
                sshHosts.add(h);
            }
            return this;
        }

        /** Options for every {@code ssh} call, e.g. {@code "-i", "key", "-p", "2222"}. */
        public Builder sshOptions(String... options) {
            sshOptions.addAll(List.of(options));
            return this;
        }

        /** The java command on the ssh hosts; default {@code java} (on the remote PATH). */
        public Builder sshJava(String command) {
            this.sshJava = Objects.requireNonNull(command, "command");
            return this;
        }

        /**
         * The ssh hosts have this JVM's class path at the same paths (a shared file system): nothing is shipped.
         * Without this, each ssh worker gets the class path down its ssh connection, as jars.
         */
        public Builder sharedClassPath() {
            this.shipClassPath = false;
            return this;
        }

        /** The launcher. */
        public Launcher build() {
            if (!sshHosts.isEmpty() && isLoopback(host) && !sshHosts.stream().allMatch(h -> isLoopback(h.substring(h.indexOf('@') + 1)))) {
                throw new IllegalArgumentException("node 0 listens on " + host + ", which the ssh hosts " + sshHosts
                        + " cannot reach: bind(host, port) to an address of this machine that they can");
            }
            return new Launcher(this);
        }
    }
}
