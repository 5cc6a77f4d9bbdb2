package dev.weft.net.launch;

import dev.weft.csp.ConnectionClient;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.LinkLostException;
import dev.weft.net.NameNotFoundException;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import dev.weft.net.NodeAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * A worker node of a {@link Launcher} run, in a JVM of its own: {@code java -cp <the program's class path>
 * dev.weft.net.launch.WorkerMain <launcher host:port> <program class>}. The launcher starts these itself on this
 * machine; start them by hand on other machines (with {@code -Dweft.bind=<this machine's address>} so that
 * other nodes can reach it). The worker joins the launcher, runs its part, reports, and exits: 0 when its
 * part ended normally, 1 when it failed, 2 when the launcher refused it, 3 when the launcher went away.
 */
public final class WorkerMain {
    /** The connection server through which workers join a launcher. */
    static final String JOIN = "weft.launch.join";
    /** A worker that takes the index the launcher gives it. */
    static final int ANY_INDEX = -1;
    /** How long a worker started by hand tries to reach a launcher that is not up yet. */
    private static final long JOIN_WAIT_MS = 60_000;
    /** Set once this worker's part has ended: its own node's close then ends the control channel, not the launcher. */
    private static volatile boolean ending;

    private WorkerMain() {
    }

    /** Joins the launcher at {@code args[0]} and runs program {@code args[1]}. */
    public static void main(String[] args) {
        System.exit(run(NodeAddress.parse(args[0]), args[1], Integer.getInteger("weft.index", ANY_INDEX),
                System.getProperty("weft.label", ""), System.getProperty("weft.bind")));
    }

    /**
     * Joins the launcher at {@code launcher} as node {@code index} ({@link #ANY_INDEX}: the launcher chooses),
     * runs its part of {@code programClass}, and returns the exit code; {@code label} says how the engine that
     * started it names it ("" for none), {@code bind} where it listens (null: 127.0.0.1).
     */
    static int run(NodeAddress launcher, String programClass, int index, String label, String bind) {
        NetProgram<?> program = Launcher.instantiate(programClass);
        Node.Builder b = Node.builder().nameServer(launcher).allow(program.allowedTypes());
        if (bind != null) {
            b.bind(bind, 0);
        }
        Launcher.heartbeatProperty(b::heartbeat);
        try (Scheduler s = Scheduler.create(Runtime.getRuntime().availableProcessors());
             Node node = b.scheduler(s).start()) { // the carriers poll the node's sockets: no I/O thread
            return joinAndRun(node, s, program, programClass, index, label);
        }
    }

    private static int joinAndRun(Node node, Scheduler s, NetProgram<?> program, String programClass, int index,
                                  String label) {
        NetChannelInput<String> control = node.net2one();
        String joined = join(node, programClass + "\n" + ProcessHandle.current().pid() + "\n" + control.location()
                + "\n" + index + "\n" + label.replace('\n', ' '));
        if (joined == null) {
            return 3;
        }
        String[] reply = joined.split("\n", -1);
        if (reply[0].equals("refused")) {
            System.err.println("the launcher refused this worker: " + reply[1]);
            return 2;
        }
        int given = Integer.parseInt(reply[0]);
        int size = Integer.parseInt(reply[1]);
        NetChannelOutput<String> status = node.one2net(NetChannelLocation.parse(reply[2]));
        List<String> args = Arrays.asList(reply).subList(3, reply.length);
        status.write("started"); // from now on the launcher hears at once if this node is lost
        control.read();          // go: every node has joined
        Weft.spawn(s, () -> exitWhenTheLauncherGoes(control)); // a fiber: no thread beside the carriers waits
        try {
            Weft.run(s, () -> program.run(new Cluster(node, given, size, args)));
        } catch (RuntimeException | Error e) {
            ending = true;
            e.printStackTrace();
            try {
                status.write("failed " + e);
            } catch (PoisonException launcherGone) {
                // the launcher has gone too: the exit code says it all
            }
            return 1;
        }
        ending = true;
        status.write("done");
        return 0;
    }

    /**
     * Asks the launcher to join, waiting at most {@code weft.joinWait} ms (the launcher passes its join timeout,
     * after which it has given up on this worker; one started by hand waits {@link #JOIN_WAIT_MS}): a worker may
     * start before its launcher listens, and one whose launcher has gone must not wait for it forever. Returns
     * the launcher's reply, or null (told on standard error) if it could not be reached.
     */
    private static String join(Node node, String request) {
        Duration wait = Duration.ofMillis(Long.getLong("weft.joinWait", JOIN_WAIT_MS));
        try {
            return node.<String, String>connectionClient(JOIN, wait).request(request);
        } catch (LinkLostException | NameNotFoundException e) {
            System.err.println("worker: could not join the launcher within " + wait.toMillis() + " ms: "
                    + e.getMessage());
            return null;
        }
    }

    /**
     * The launcher poisons the control channel when it aborts a run; a lost launcher fails it too. This node's
     * own close at the end of its part poisons it as well ({@link #ending}): the fiber then ends, and so
     * lets the scheduler close.
     */
    @Pausable
    private static void exitWhenTheLauncherGoes(NetChannelInput<String> control) {
        try {
            control.read();
        } catch (PoisonException e) {
            if (ending) {
                return;
            }
            System.err.println("worker: the launcher stopped the run (" + e.getMessage() + ")");
        }
        Runtime.getRuntime().halt(3);
    }
}
