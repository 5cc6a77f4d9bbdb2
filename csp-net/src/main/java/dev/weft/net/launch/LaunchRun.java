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
    /** The worker JVMs this machine started that have joined, by pid: their exit names their node. */
    private final Map<Long, String> joinedPids = new ConcurrentHashMap<>();
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
        this.size = config.localNodes + config.remoteNodes;
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
        NetConnectionServer<String, String> joins = node.connectionServer(Worker.JOIN);
        for (int i = 1; i < config.localNodes; i++) {
            startWorkerJvm();
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

    private void startWorkerJvm() {
        try {
            Process p = new ProcessBuilder(launcher.workerCommand(node.address().toString(), programClass.getName()))
                    .inheritIO().start();
            started.add(p);
            p.onExit().thenAccept(ended -> {
                String who = joinedPids.getOrDefault(ended.pid(), "a worker JVM (pid " + ended.pid() + ")");
                if (ended.exitValue() != 0) {
                    fail(who + " exited with code " + ended.exitValue(), null);
                }
            });
        } catch (IOException e) {
            fail("could not start a worker JVM", e);
        }
    }

    /** Accepts every worker, gives each its index and a status channel, and hears it start. */
    private void join(NetConnectionServer<String, String> joins) {
        while (members.size() < size - 1) {
            String[] request = joins.accept().split("\n", -1);
            if (!request[0].equals(programClass.getName())) {
                joins.reply("refused\nthis launcher runs " + programClass.getName() + ", not " + request[0]);
                continue;
            }
            int index = members.size() + 1;
            NetChannelLocation control = NetChannelLocation.parse(request[2]);
            String name = "node " + index + " (" + control.node() + ", pid " + request[1] + ")";
            NetChannelInput<String> status = node.net2one();
            joins.reply(index + "\n" + size + "\n" + status.location() + "\n" + String.join("\n", args));
            joinedPids.put(Long.parseLong(request[1]), name);
            Member m = new Member(index, name, node.one2net(control), status);
            try {
                status.read(); // started
            } catch (PoisonException e) {
                throw new LaunchException(name + " was lost as it joined: " + e.getMessage(), e);
            }
            members.add(m);
        }
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
            fail("timed out " + doing + " (" + members.size() + " of " + (size - 1) + " workers joined)", e);
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
                p.waitFor(failure.isDone() ? 0 : 10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        destroyStarted();
        try {
            Runtime.getRuntime().removeShutdownHook(destroyOnExit);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run
        }
        node.close();
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
