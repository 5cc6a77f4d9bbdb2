package dev.weft.net.launch;

import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.NetConnectionServer;
import dev.weft.net.Node;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One run of a {@link Launcher}: node 0 here, worker JVMs started and joined, the program run everywhere, each
 * worker watched (its status channel fails at once when its link is lost, its process's exit is seen), and
 * everything shut down at the end, whatever happened. The first failure aborts the run.
 */
final class LaunchRun<R> implements AutoCloseable {
    private final Launcher launcher;
    private final Launcher.Builder config;
    private final Class<? extends NetProgram<R>> programClass;
    private final List<String> args;
    private final NetProgram<R> program;
    /** Node 0's carriers: they run its part and poll its sockets. */
    private final Scheduler scheduler = Scheduler.create(Runtime.getRuntime().availableProcessors());
    private final Node node;
    private final int size;
    private final List<Process> started = new ArrayList<>();
    private final SshWorkers ssh;
    /** What this machine's workers start from; published once they have ended. */
    private final ClassDataArchive archive;
    /** The worker JVMs this machine started that have joined, by pid: their exit names their node. */
    private final Map<Long, String> joinedPids = new ConcurrentHashMap<>();
    /** The names of the workers that have joined, by index (the join thread adds them; a timeout reads them). */
    private final Map<Integer, String> joinedNames = new ConcurrentHashMap<>();
    private final List<Member> members = new ArrayList<>();
    /** Completed by the first failure, which {@link #firstFailure} holds. */
    private final CompletableFuture<Void> failure = new CompletableFuture<>();
    private final AtomicReference<LaunchException> firstFailure = new AtomicReference<>();
    private final Thread destroyOnExit = new Thread(this::destroyStarted, "weft-launcher-cleanup");

    @SuppressWarnings("unchecked")
    LaunchRun(Launcher launcher, Launcher.Builder config, Class<? extends NetProgram<R>> programClass,
              List<String> args) {
        this.launcher = launcher;
        this.config = config;
        this.programClass = programClass;
        this.args = args;
        this.program = (NetProgram<R>) Launcher.instantiate(programClass.getName());
        this.ssh = new SshWorkers(config);
        this.archive = launcher.classDataArchive();
        this.size = config.localNodes + config.remoteNodes + config.sshHosts.size();
        try {
            this.node = Node.builder().scheduler(scheduler).serveNames().bind(config.host, config.port)
                    .heartbeat(config.heartbeatInterval, config.heartbeatTimeout).allow(program.allowedTypes()).start();
        } catch (RuntimeException | Error e) {
            scheduler.close();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(destroyOnExit);
    }

    R run() {
        NetConnectionServer<String, String> joins = node.connectionServer(WorkerMain.JOIN);
        for (int i = 1; i < config.localNodes; i++) {
            try {
                Process worker = new ProcessBuilder(launcher.workerCommand(node.address().toString(),
                        programClass.getName(), archive.nextWorkerOptions())).inheritIO().start();
                archive.started(worker);
                watchExit(List.of(worker), WorkerMain.ANY_INDEX, "a worker JVM");
            } catch (IOException e) {
                fail("could not start a worker JVM", e);
            }
        }
        for (int i = 0; i < config.sshHosts.size(); i++) {
            String host = config.sshHosts.get(i);
            try {
                watchExit(ssh.start(host, firstSshNode() + i, node.address().toString(), programClass.getName()),
                        firstSshNode() + i, "the ssh worker on " + host);
            } catch (IOException e) {
                fail("could not start the ssh worker on " + host + ": " + e.getMessage(), e);
            }
        }
        await(daemon("weft-launcher-join", () -> join(joins)), "waiting for " + (size - 1) + " workers to join",
                config.joinTimeout.toMillis());
        for (Member m : members) {
            m.control.write("go");
        }
        for (Member m : members) {
            daemon("weft-launcher-watch-" + m.index, () -> watch(m));
        }
        CompletableFuture<R> result = new CompletableFuture<>();
        daemon("weft-launcher-node-0", () -> result.complete(runNode0()));
        List<CompletableFuture<?>> all = new ArrayList<>();
        all.add(result);
        members.forEach(m -> all.add(m.done));
        await(CompletableFuture.allOf(all.toArray(new CompletableFuture<?>[0])), "running", Long.MAX_VALUE);
        return result.join();
    }

    /**
     * Fails the run if the last of {@code processes} (a worker JVM, or the ssh that runs one) exits with an error:
     * {@code what} names it until it has joined, then its node's name (found by its pid here, or by its
     * {@code index} when it was given one).
     */
    private void watchExit(List<Process> processes, int index, String what) {
        started.addAll(processes);
        processes.get(processes.size() - 1).onExit().thenAccept(ended -> {
            String joinedAs = index == WorkerMain.ANY_INDEX ? joinedPids.get(ended.pid()) : joinedNames.get(index);
            String who = joinedAs != null ? joinedAs : what + " (pid " + ended.pid() + ")";
            if (ended.exitValue() != 0) {
                fail(who + " exited with code " + ended.exitValue(), null);
            }
        });
    }

    /**
     * Accepts every worker, gives each its index (the one it asks for, as a cluster engine numbers its tasks, or
     * else the lowest free one) and a status channel, and hears it start.
     */
    private void join(NetConnectionServer<String, String> joins) {
        while (members.size() < size - 1) {
            String[] request = joins.accept().split("\n", -1);
            if (!request[0].equals(programClass.getName())) {
                joins.reply("refused\nthis launcher runs " + programClass.getName() + ", not " + request[0]);
                continue;
            }
            int asked = request.length > 3 ? Integer.parseInt(request[3]) : WorkerMain.ANY_INDEX;
            if (asked != WorkerMain.ANY_INDEX && (asked < 1 || asked >= size || joinedNames.containsKey(asked))) {
                joins.reply("refused\nnode " + asked + (asked < 1 || asked >= size ? " is not a worker of a run on "
                        + size + " nodes" : " has joined already"));
                continue;
            }
            int index = asked != WorkerMain.ANY_INDEX ? asked : lowestFree();
            NetChannelLocation control = NetChannelLocation.parse(request[2]);
            String label = request.length > 4 && !request[4].isEmpty() ? request[4] + ", " : "";
            String name = "node " + index + " (" + label + control.node() + ", pid " + request[1] + ")";
            NetChannelInput<String> status = node.net2one();
            joins.reply(index + "\n" + size + "\n" + status.location() + "\n" + String.join("\n", args));
            joinedPids.put(Long.parseLong(request[1]), name);
            joinedNames.put(index, name);
            Member m = new Member(index, name, node.one2net(control), status);
            try {
                status.read(); // started
            } catch (PoisonException e) {
                throw new LaunchException(name + " was lost as it joined: " + e.getMessage(), e);
            }
            members.add(m);
        }
    }

    /** The lowest index that no worker has and none of the ssh hosts is given (they are numbered in order). */
    private int lowestFree() {
        int i = 1;
        while (joinedNames.containsKey(i) || i >= firstSshNode() && i < firstSshNode() + config.sshHosts.size()) {
            i++;
        }
        return i;
    }

    /** The index of the first ssh host's node: they come after this machine's. */
    private int firstSshNode() {
        return config.localNodes;
    }

    /** The workers that have not joined, for messages: "nodes 2, 3". */
    private String missing() {
        List<String> missing = new ArrayList<>();
        for (int i = 1; i < size; i++) {
            if (!joinedNames.containsKey(i)) {
                missing.add(Integer.toString(i));
            }
        }
        return (missing.size() == 1 ? "node " : "nodes ") + String.join(", ", missing);
    }

    /** A worker's status: "done", "failed ...", or its link lost. */
    private void watch(Member m) {
        try {
            String s = m.status.read();
            if (s.equals("done")) {
                m.done.complete(null);
            } else {
                fail(m.name + " failed: " + s.substring("failed ".length()), null);
            }
        } catch (PoisonException e) {
            fail(m.name + " was lost: " + e.getMessage(), e);
        }
    }

    private R runNode0() {
        Object[] result = new Object[1];
        try {
            Weft.run(scheduler, () -> result[0] = program.run(new Cluster(node, 0, size, args)));
        } catch (RuntimeException | Error e) {
            fail("node 0 (this JVM) failed: " + e, e);
        }
        @SuppressWarnings("unchecked")
        R r = (R) result[0];
        return r;
    }

    /** Waits for {@code step} or the first failure, which it throws. */
    private void await(CompletableFuture<?> step, String doing, long millis) {
        try {
            CompletableFuture.anyOf(step, failure).get(millis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            fail("timed out " + doing + " (" + joinedNames.size() + " of " + (size - 1) + " workers joined; " + missing()
                    + (joinedNames.size() == size - 2 ? " has" : " have") + " not)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted " + doing, e);
        } catch (java.util.concurrent.ExecutionException e) {
            fail(doing + ": " + e.getCause().getMessage(), e.getCause());
        }
        if (failure.isDone()) {
            throw firstFailure.get();
        }
    }

    private void fail(String message, Throwable cause) {
        if (firstFailure.compareAndSet(null, new LaunchException(message, cause))) {
            failure.complete(null);
        }
    }

    private CompletableFuture<Void> daemon(String name, Runnable body) {
        CompletableFuture<Void> ended = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                body.run();
                ended.complete(null);
            } catch (RuntimeException | Error e) {
                ended.completeExceptionally(e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return ended;
    }

    /** Stops every worker (a poisoned control channel makes it exit), destroys the JVMs it started, closes node 0. */
    @Override
    public void close() {
        if (failure.isDone()) {
            for (Member m : members) {
                m.control.poison();
            }
        }
        for (Process p : started) {
            try {
                // the recorder of the class-data archive writes it as it exits: seconds, more on a loaded machine
                p.waitFor(failure.isDone() ? 0 : archive.records(p) ? 60 : 10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        destroyStarted();
        archive.publish();
        try {
            Runtime.getRuntime().removeShutdownHook(destroyOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
        node.close();
        ssh.close();
        scheduler.close(); // its carriers stop once node 0's part has ended
    }

    private void destroyStarted() {
        for (Process p : started) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** A joined worker. */
    private static final class Member {
        final int index;
        final String name;
        final NetChannelOutput<String> control;
        final NetChannelInput<String> status;
        final CompletableFuture<Void> done = new CompletableFuture<>();

        Member(int index, String name, NetChannelOutput<String> control, NetChannelInput<String> status) {
            this.index = index;
            this.name = name;
            this.control = control;
            this.status = status;
        }
    }
}
