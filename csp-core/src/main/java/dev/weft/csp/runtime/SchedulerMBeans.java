package dev.weft.csp.runtime;

import dev.weft.csp.management.SchedulerMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.StandardMBean;

/**
 * Registers the schedulers' MBeans ({@code dev.weft:type=Scheduler,name=NAME}) with the platform MBean server
 * without ever creating that server: creating it registers every platform MXBean of the JVM, most of what a
 * scheduler's start cost in a fresh JVM (a few hundred milliseconds of processor time). So an MBean is
 * registered at once if the server exists, else as soon as something else creates it: a JMX agent started by a
 * tool (JConsole, VisualVM, {@code weft dump}), or the application itself. The carrier watchdog, which runs while
 * any scheduler does, looks at each of its rounds ({@link #registerWaiting}).
 */
public final class SchedulerMBeans {
    /** The MBeans waiting for the server, by scheduler name. Guarded by the class's monitor. */
    private static final Map<String, SchedulerMXBean> WAITING = new LinkedHashMap<>();
    /** Whether any MBean waits: read by the watchdog at each round without the monitor. */
    private static volatile boolean anyWaiting;

    private SchedulerMBeans() {
    }

    /** Registers {@code bean} under its scheduler's name, now or once the platform MBean server exists. */
    public static synchronized void register(SchedulerMXBean bean) {
        if (serverExists()) {
            registerNow(bean);
        } else {
            WAITING.put(bean.getName(), bean);
            anyWaiting = true;
        }
    }

    /** Unregisters the MBean of the scheduler {@code name}, registered or waiting. */
    public static synchronized void unregister(String name) {
        if (WAITING.remove(name) != null) {
            anyWaiting = !WAITING.isEmpty();
            return;
        }
        if (serverExists()) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(objectName(name));
            } catch (JMException | RuntimeException e) {
                // never registered (its registration failed), or already gone
            }
        }
    }

    /** Registers the waiting MBeans if the platform MBean server has come to exist meanwhile (watchdog rounds). */
    static void registerWaiting() {
        if (!anyWaiting) {
            return;
        }
        synchronized (SchedulerMBeans.class) {
            if (!WAITING.isEmpty() && serverExists()) {
                for (SchedulerMXBean bean : WAITING.values()) {
                    registerNow(bean);
                }
                WAITING.clear();
                anyWaiting = false;
            }
        }
    }

    /**
     * Whether an MBean server exists: the platform server is made through {@link MBeanServerFactory}, which keeps
     * a list of the servers it made (another server made by the application counts too: it uses JMX).
     */
    private static boolean serverExists() {
        return !MBeanServerFactory.findMBeanServer(null).isEmpty();
    }

    /**
     * The fiber dumps of every scheduler of this JVM, one after another, read through their MBeans (making the
     * platform MBean server if need be); a line that says why when there is none to read. For a test that timed
     * out: it runs on whatever thread notices.
     */
    public static String dumpAllFibers() {
        StringBuilder b = new StringBuilder();
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            registerWaiting(); // a scheduler registers its MBean only once the server exists
            Set<ObjectName> schedulers = new TreeSet<>(server.queryNames(new ObjectName("dev.weft:type=Scheduler,*"), null));
            if (schedulers.isEmpty()) {
                b.append("(no scheduler is open, or they run with -Dweft.jmx=false)\n");
            }
            for (ObjectName s : schedulers) {
                b.append(server.invoke(s, "dumpFibers", null, null)).append('\n');
            }
        } catch (JMException | RuntimeException e) {
            b.append("(the dumps could not be read: ").append(e).append(")\n");
        }
        return b.toString();
    }

    private static void registerNow(SchedulerMXBean bean) {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            server.registerMBean(new StandardMBean(bean, SchedulerMXBean.class, true), objectName(bean.getName()));
        } catch (JMException | RuntimeException | LinkageError e) {
            // management is optional: a scheduler works without it
        }
    }

    private static ObjectName objectName(String scheduler) throws JMException {
        return new ObjectName("dev.weft:type=Scheduler,name=" + scheduler);
    }
}
