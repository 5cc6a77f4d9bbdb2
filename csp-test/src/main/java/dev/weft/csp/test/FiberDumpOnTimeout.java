package dev.weft.csp.test;

import dev.weft.csp.runtime.SchedulerMBeans;
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
        System.err.print(test.getDisplayName() + " in " + test.getRequiredTestClass().getName() + " timed out; "
                + interrupt.getThreadToInterrupt() + " will be interrupted. The fibers of every Weft scheduler now:\n"
                + SchedulerMBeans.dumpAllFibers());
        System.err.flush();
    }
}
