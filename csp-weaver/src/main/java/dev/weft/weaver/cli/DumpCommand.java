package dev.weft.weaver.cli;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.PrintStream;
import java.util.Set;
import java.util.TreeSet;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * {@code java -jar csp-weaver.jar dump PID}: the fiber dump of every Weft scheduler in the running JVM
 * {@code PID}, as {@code jstack PID} gives its threads. It attaches to the JVM (the Attach API, as jcmd does:
 * same user, a JDK's {@code java}), starts its local management agent, and calls {@code dumpFibers} on each
 * {@code dev.weft:type=Scheduler} MBean (see csp-core's {@code SchedulerMXBean}).
 */
final class DumpCommand {
    /**
     * How long an empty list of schedulers is asked again: their MBeans follow the server's creation within a
     * watchdog round, or within its doze (a second at most) in a JVM whose carriers are all idle.
     */
    private static final long REGISTRATION_WAIT_NANOS = 3_000_000_000L;
    static final String USAGE = "usage: java -jar csp-weaver.jar dump PID   (the fiber dumps of a running JVM's"
            + " Weft schedulers)";

    private DumpCommand() {
    }

    /** Runs {@code dump PID}; returns the exit status. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length != 2 || !args[1].matches("\\d+")) {
            err.println("weft: dump needs the process id of a running JVM, e.g. dump 12345 (see jps)");
            err.println(USAGE);
            return WeaveCli.USAGE;
        }
        String pid = args[1];
        String address;
        try {
            VirtualMachine vm = VirtualMachine.attach(pid);
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
        } catch (AttachNotSupportedException | IOException | SecurityException e) {
            err.println("weft: cannot attach to JVM " + pid + " (" + e.getMessage() + "): it must be running, as"
                    + " the same user, and allow attaching (not -XX:+DisableAttachMechanism)");
            return WeaveCli.FAILED;
        }
        try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            Set<ObjectName> schedulers = schedulers(server);
            if (schedulers.isEmpty()) {
                err.println("weft: JVM " + pid + " has no Weft scheduler open (or runs with -Dweft.jmx=false)");
                return WeaveCli.FAILED;
            }
            for (ObjectName name : schedulers) {
                out.print(server.invoke(name, "dumpFibers", null, null));
            }
            return WeaveCli.OK;
        } catch (IOException | JMException e) {
            err.println("weft: cannot read the schedulers of JVM " + pid + ": " + e);
            return WeaveCli.FAILED;
        }
    }

    /**
     * The schedulers' MBeans. Weft registers them once the MBean server exists, which the agent just started may
     * have made: they follow within a round of the JVM's carrier watchdog (12.5 ms; a second while every carrier
     * is idle), so an empty answer is asked again for a while.
     */
    private static Set<ObjectName> schedulers(MBeanServerConnection server) throws IOException, JMException {
        ObjectName pattern = new ObjectName("dev.weft:type=Scheduler,*");
        long deadline = System.nanoTime() + REGISTRATION_WAIT_NANOS;
        for (;;) {
            Set<ObjectName> found = new TreeSet<>(server.queryNames(pattern, null));
            if (!found.isEmpty() || System.nanoTime() - deadline > 0) {
                return found;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return found;
            }
        }
    }
}
