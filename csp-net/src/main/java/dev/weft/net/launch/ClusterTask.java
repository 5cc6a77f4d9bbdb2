package dev.weft.net.launch;

import java.util.List;
import java.util.Map;

/**
 * The command every task runs under a cluster engine that starts all the tasks itself:
 * {@code java -cp <class path> dev.weft.net.launch.ClusterTask <slurm|kubernetes> <program class> [args...]}.
 * Each task finds its place in the engine's environment (Slurm's task variables, or a Kubernetes indexed Job's):
 * task 0 is node 0, which listens where the others look for it, waits for them, prints the program's result and
 * exits with 0, or with 1 and the {@link LaunchException} naming the task that failed or was lost; every other
 * task is a {@link WorkerMain} that joins it as the node of its own index. {@code -Dweft.heartbeat=<interval ms>,<timeout
 * ms>} sets every node's heartbeat (default 1 s / 5 s).
 */
public final class ClusterTask {
    private ClusterTask() {
    }

    /** Runs this task's part of program {@code args[1]} under engine {@code args[0]}. */
    public static void main(String[] args) {
        if (args.length < 2 || !List.of("slurm", "kubernetes").contains(args[0])) {
            System.err.println("usage: ClusterTask <slurm|kubernetes> <program class> [args...]");
            System.exit(2);
        }
        Placement p = place(args[0], System.getenv());
        if (p.index() > 0) {
            System.exit(WorkerMain.run(p.node0(), args[1], p.index(), p.label(), p.host()));
        }
        Launcher.Builder b = Launcher.builder().remoteNodes(p.size() - 1).bind(p.host(), p.node0().port());
        Launcher.heartbeatProperty(b::heartbeat);
        Launcher.runAndPrint(b.build(), args[1], List.of(args).subList(2, args.length));
        System.exit(0);
    }

    /** This task's place under {@code engine}, from {@code env}. */
    static Placement place(String engine, Map<String, String> env) {
        return engine.equals("slurm") ? SlurmPlacement.of(env) : KubernetesPlacement.of(env);
    }
}
