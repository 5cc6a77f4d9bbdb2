package dev.weft.net;

import dev.weft.csp.Scheduler;
import dev.weft.net.poll.CarrierLoops;

/**
 * Where the suite's nodes and transports do their I/O: with {@code -Dweft.test.carriers=N} (the build's
 * {@code on-carriers} run), on the carriers of one N-carrier scheduler shared by the whole suite, so that every
 * test, the failure tests above all, runs on the carriers' path too; without it, on I/O threads of their own.
 */
public final class TestCarriers {
    private static final Scheduler SCHEDULER = start(Integer.getInteger("weft.test.carriers", 0));

    private TestCarriers() {
    }

    private static Scheduler start(int carriers) {
        return carriers > 0 ? Scheduler.create(carriers) : null;
    }

    /** The argument for a child JVM that should do the same, or null. */
    static String jvmOption() {
        return SCHEDULER == null ? null : "-Dweft.test.carriers=" + SCHEDULER.workers();
    }

    /** A node builder: on the suite's carriers, or with an I/O thread of its own. */
    public static Node.Builder builder() {
        return SCHEDULER == null ? Node.builder() : Node.builder().scheduler(SCHEDULER);
    }

    /** The suite's carrier loops for a transport, or null for a loop thread of its own. */
    public static CarrierLoops loops() {
        return SCHEDULER == null ? null : CarrierLoops.of(SCHEDULER);
    }
}
