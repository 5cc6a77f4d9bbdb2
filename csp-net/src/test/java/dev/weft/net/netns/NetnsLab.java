package dev.weft.net.netns;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Three network namespaces on this machine, each a host of its own with one address on its loopback
 * ({@code 10.77.0.1} to {@code 10.77.0.3}), joined pairwise by veth pairs, and the ways to make those links
 * misbehave: delay with jitter, reordering, random loss, a rate limit, a partition. Needs root, iproute2,
 * iptables and python3 ({@link #missing()} says what is not there). Nothing outside its own namespaces is touched,
 * and closing the lab deletes them (their veth pairs and rules go with them).
 *
 * <p>The kernels this was written on have no {@code netem}; delay, jitter and reordering are made by
 * {@code delayer.py}, which holds each packet that iptables queues to it (NFQUEUE) for its delay. Loss is
 * iptables' {@code statistic} match, the rate {@code tc tbf}, a partition an iptables DROP both ways.
 */
final class NetnsLab implements AutoCloseable {
    static final int NODES = 3;
    private static final String PREFIX = "weftnet";
    private final List<Process> started = new ArrayList<>();
    private Path delayer;

    private NetnsLab() {
    }

    /** What this machine lacks to run the lab, or null if nothing. */
    static String missing() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "network namespaces need root (this is " + System.getProperty("user.name") + ")";
        }
        for (String tool : new String[] {"ip", "iptables", "tc", "python3"}) {
            if (!onPath(tool)) {
                return tool + " is not installed (apt-get install iproute2 iptables python3)";
            }
        }
        try {
            String ns = PREFIX + "-probe";
            run("ip", "netns", "add", ns);
            try {
                run("ip", "netns", "exec", ns, "iptables", "-A", "OUTPUT", "-m", "statistic", "--mode", "random",
                        "--probability", "0.5", "-j", "ACCEPT");
            } finally {
                run("ip", "netns", "del", ns);
            }
        } catch (IOException e) {
            return "network namespaces or iptables do not work here: " + e.getMessage();
        }
        return null;
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return Files.isExecutable(Path.of("/usr/sbin", tool)) || Files.isExecutable(Path.of("/sbin", tool));
    }

    /** The lab, set up: namespaces, addresses, veth pairs, routes; any lab left by an earlier run removed first. */
    static NetnsLab start() throws IOException {
        NetnsLab lab = new NetnsLab();
        try {
            lab.removeNamespaces();
            for (int i = 0; i < NODES; i++) {
                run("ip", "netns", "add", ns(i));
                in(i, "ip", "link", "set", "lo", "up");
                in(i, "ip", "addr", "add", address(i) + "/32", "dev", "lo");
            }
            for (int i = 0; i < NODES; i++) {
                for (int j = i + 1; j < NODES; j++) {
                    run("ip", "link", "add", veth(i, j), "netns", ns(i), "type", "veth", "peer", "name", veth(j, i), "netns", ns(j));
                    for (int[] end : new int[][] {{i, j}, {j, i}}) {
                        in(end[0], "ip", "link", "set", veth(end[0], end[1]), "up");
                        in(end[0], "ip", "route", "add", address(end[1]) + "/32", "dev", veth(end[0], end[1]), "src", address(end[0]));
                    }
                }
            }
            return lab;
        } catch (IOException | RuntimeException e) {
            lab.close();
            throw e;
        }
    }

    /** Node {@code i}'s namespace. */
    static String ns(int i) {
        return PREFIX + i;
    }

    /** The address of namespace {@code i}, on its loopback. */
    static String address(int i) {
        return "10.77.0." + (i + 1);
    }

    /** The veth end in namespace {@code i} that leads to namespace {@code j}. */
    private static String veth(int i, int j) {
        return "wn" + i + "-" + j;
    }

    /** Every packet leaving for another namespace waits {@code ms} +- {@code jitterMs} (uniform). */
    void delay(int ms, int jitterMs) throws IOException {
        queueToDelayer(String.valueOf(ms), String.valueOf(jitterMs));
    }

    /** {@code percent} of the packets leaving for another namespace go at once, the others wait {@code ms}: reordered. */
    void reorder(int ms, int percent) throws IOException {
        queueToDelayer(String.valueOf(ms), "0", String.valueOf(percent));
    }

    private void queueToDelayer(String... args) throws IOException {
        if (delayer == null) {
            delayer = Files.createTempFile("delayer", ".py");
            try (InputStream script = NetnsLab.class.getResourceAsStream("delayer.py")) {
                Files.write(delayer, script.readAllBytes());
            }
        }
        for (int i = 0; i < NODES; i++) {
            List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns(i), "python3", delayer.toString(), "0"));
            cmd.addAll(List.of(args));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            started.add(p);
            String first = new String(p.getInputStream().readNBytes("delaying\n".length()), StandardCharsets.UTF_8);
            if (!first.equals("delaying\n")) {
                throw new IOException("the delayer in " + ns(i) + " did not start: " + first
                        + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            }
            // --queue-bypass: should the delayer die, packets flow undelayed rather than vanish.
            in(i, "iptables", "-A", "OUTPUT", "-o", "wn+", "-j", "NFQUEUE", "--queue-num", "0", "--queue-bypass");
        }
    }

    /** Each packet leaving for another namespace is dropped with probability {@code percent} / 100. */
    void loss(double percent) throws IOException {
        for (int i = 0; i < NODES; i++) {
            in(i, "iptables", "-I", "OUTPUT", "-o", "wn+", "-m", "statistic", "--mode", "random", "--probability",
                    String.valueOf(percent / 100), "-j", "DROP");
        }
    }

    /** Every link carries at most {@code kbit} kilobits per second each way (a token bucket, 400 ms of queue). */
    void rate(int kbit) throws IOException {
        for (int i = 0; i < NODES; i++) {
            for (int j = 0; j < NODES; j++) {
                if (i != j) {
                    in(i, "tc", "qdisc", "add", "dev", veth(i, j), "root", "tbf", "rate", kbit + "kbit", "burst", "16kb",
                            "latency", "400ms");
                }
            }
        }
    }

    /** Drops every packet between namespaces {@code i} and {@code j}, both ways, until {@link #heal}. */
    void partition(int i, int j) throws IOException {
        in(i, "iptables", "-I", "OUTPUT", "-o", veth(i, j), "-j", "DROP");
        in(j, "iptables", "-I", "OUTPUT", "-o", veth(j, i), "-j", "DROP");
    }

    /** Ends the partition between {@code i} and {@code j}. */
    void heal(int i, int j) throws IOException {
        in(i, "iptables", "-D", "OUTPUT", "-o", veth(i, j), "-j", "DROP");
        in(j, "iptables", "-D", "OUTPUT", "-o", veth(j, i), "-j", "DROP");
    }

    /** Starts {@code command} in namespace {@code i}, its output and errors merged; destroyed by {@link #close}. */
    Process spawn(int i, List<String> command) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns(i)));
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        started.add(p);
        return p;
    }

    /** Runs {@code command} in namespace {@code i}. */
    private static void in(int i, String... command) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", ns(i)));
        cmd.addAll(List.of(command));
        run(cmd.toArray(new String[0]));
    }

    /** Runs {@code command}; IOException with its output if it fails or takes more than 30 s. */
    private static void run(String... command) throws IOException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " did not end within 30 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted in " + String.join(" ", command), e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " failed with " + p.exitValue() + ": "
                    + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
        }
    }

    private void removeNamespaces() throws IOException {
        for (int i = 0; i < NODES; i++) {
            if (Files.exists(Path.of("/run/netns", ns(i)))) {
                run("ip", "netns", "del", ns(i));
            }
        }
    }

    /** Destroys what the lab started (and their children), then deletes the namespaces. */
    @Override
    public void close() throws IOException {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
        for (Process p : started) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        removeNamespaces();
        if (delayer != null) {
            Files.deleteIfExists(delayer);
        }
    }
}
