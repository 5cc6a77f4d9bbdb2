package dev.weft.csp;

import dev.weft.csp.runtime.SchedulerMBeans;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.PreInterruptCallback;
import org.junit.jupiter.api.extension.PreInterruptContext;

/**
 * csp-core's own tests cannot use csp-test (which depends on csp-core), so they load this copy of its
 * {@code FiberDumpOnTimeout} (see junit-platform.properties): a test that times out first writes every
 * scheduler's fiber dump.
 */
public final class TimeoutDump implements PreInterruptCallback {
    @Override
    public void beforeThreadInterrupt(PreInterruptContext interrupt, ExtensionContext test) {
        System.err.print(test.getUniqueId() + " timed out; the fibers of every Weft scheduler now:\n"
                + SchedulerMBeans.dumpAllFibers());
        System.err.flush();
    }
}
