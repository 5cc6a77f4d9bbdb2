package dev.weft.csp.test;

import dev.weft.csp.runtime.SchedulerMBeans;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.Set;
import java.util.TreeSet;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.PreInterruptCallback;
import org.junit.jupiter.api.extension.PreInterruptContext;

/**
 * When a test's {@code @Timeout} runs out, writes the fiber dump of every Weft scheduler of the JVM to standard
 * error before JUnit interrupts the test: a thread dump shows only idle carriers, where the fibers show what each
 * one waits on and where. Register it with {@code @ExtendWith(FiberDumpOnTimeout.class)}, or for every test with
 * {@code junit.jupiter.extensions.autodetection.enabled=true} (in {@code junit-platform.properties}), which finds
 * it on the class path. The dumps come from the schedulers' MBeans ({@code dev.weft:type=Scheduler}), so a JVM run
 * with {@code -Dweft.jmx=false} has none to show, and says so.
 */
public final class FiberDumpOnTimeout implements PreInterruptCallback {
    @Override
    public void beforeThreadInterrupt(PreInterruptContext interrupt, ExtensionContext test) {
        PrintStream err = System.err;
        StringBuilder b = new StringBuilder().append(test.getDisplayName()).append(" in ")
                .append(test.getRequiredTestClass().getName()).append(" timed out; ").append(interrupt.getThreadToInterrupt())
                .append(" will be interrupted. The fibers of every Weft scheduler now:\n");
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            SchedulerMBeans.registerWaiting(); // a scheduler registers its MBean only once the server exists
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
        err.print(b);
        err.flush();
    }
}
