package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.delivery.ChildJvm;
import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scheduler does not make the platform MBean server (the JVM's own MXBeans cost a fresh JVM a few hundred
 * milliseconds), yet its MBean is there as soon as a JMX agent makes the server: checked in a fresh JVM, where
 * nothing else has made it.
 */
class SchedulerMBeanTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(90)
    void theMBeanIsThereOnceAJmxAgentMakesTheServer() throws Exception {
        String classpath = location(Channel.class) + File.pathSeparator + location(SchedulerMBeanTest.class);
        ChildJvm.Result r = ChildJvm.run(dir, Duration.ofSeconds(60),
                List.of("-cp", classpath, Child.class.getName()));
        assertEquals(0, r.exitCode(), r::toString);
        assertEquals("no server; Workers 2; live 1", r.stdout().strip(), r::toString);
    }

    /** Run in the fresh JVM: prints whether a server existed, then what the MBean says once one does. */
    public static final class Child {
        private Child() {
        }

        public static void main(String[] args) throws Exception {
            try (Scheduler s = Scheduler.create(2)) {
                One2OneChannel<Integer> c = Channel.one2one();
                Thread reader = new Thread(() -> Weft.run(s, () -> c.in().read()));
                reader.start();
                String before = MBeanServerFactory.findMBeanServer(null).isEmpty() ? "no server" : "a server";
                ObjectName name = awaitMBean(s);
                while (s.dumpFibers().indexOf("parked") < 0) {
                    Thread.sleep(1); // the reader's fiber has yet to wait
                }
                Object workers = ManagementFactory.getPlatformMBeanServer().getAttribute(name, "Workers");
                Object live = ManagementFactory.getPlatformMBeanServer().getAttribute(name, "LiveFibers");
                c.out().write(1);
                reader.join();
                System.out.println(before + "; Workers " + workers + "; live " + live);
            }
        }
    }

    /**
     * The name of {@code s}'s MBean, once registered: this makes the platform MBean server, as a JMX agent would
     * (Weft never makes it), and waits for the registration, which follows within a watchdog round. No JUnit
     * here: the fresh JVM runs it too.
     */
    static ObjectName awaitMBean(Scheduler s) throws Exception {
        ObjectName name = new ObjectName("dev.weft:type=Scheduler,name=" + s.name());
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!ManagementFactory.getPlatformMBeanServer().isRegistered(name)) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no MBean " + name + " 10 s after the server was made");
            }
            Thread.sleep(1);
        }
        return name;
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
