package dev.weft.csp.runtime;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Weft's JDK Flight Recorder events, category "Weft": fiber spawn and end, steals between carriers, deadlock
 * reports, carriers stuck in one slice. Record them as any JFR event ({@code jcmd PID JFR.start}, or
 * {@code -XX:StartFlightRecording}); spawn, end and steal events are off in JFR's default settings (there can
 * be millions), switch them on by name ({@code dev.weft.FiberSpawn#enabled=true}). While nothing records
 * them an event costs a test of a flag: the event object is never made. A runtime without the
 * {@code jdk.jfr} module gets no events and pays nothing.
 */
public final class RuntimeEvents {
    private static final boolean JFR = ModuleLayer.boot().findModule("jdk.jfr").isPresent();

    private RuntimeEvents() {
    }

    /** A fiber was started. */
    public static void fiberSpawned(Object fiber, String scheduler) {
        if (JFR) {
            Events.spawned(fiber, scheduler);
        }
    }

    /** A fiber ended; {@code failure} is what it threw, or null. */
    public static void fiberEnded(Object fiber, Throwable failure) {
        if (JFR) {
            Events.ended(fiber, failure);
        }
    }

    /** A deadlock was reported. */
    public static void deadlock(String report) {
        if (JFR) {
            Events.deadlock(report);
        }
    }

    static void stolen(String thief, int fibers) {
        if (JFR) {
            Events.stolen(thief, fibers);
        }
    }

    static void stuckCarrier(String fiber, String carrier, long millis) {
        if (JFR) {
            Events.stuck(fiber, carrier, millis);
        }
    }

    /** The events themselves, loaded only where the jdk.jfr module is. */
    private static final class Events {
        static void spawned(Object fiber, String scheduler) {
            FiberSpawn e = new FiberSpawn();
            if (e.isEnabled()) {
                e.fiber = String.valueOf(fiber);
                e.scheduler = scheduler;
                e.commit();
            }
        }

        static void ended(Object fiber, Throwable failure) {
            FiberEnd e = new FiberEnd();
            if (e.isEnabled()) {
                e.fiber = String.valueOf(fiber);
                e.failure = failure == null ? null : failure.toString();
                e.commit();
            }
        }

        static void deadlock(String report) {
            DeadlockReport e = new DeadlockReport();
            if (e.isEnabled()) {
                e.report = report;
                e.commit();
            }
        }

        static void stolen(String thief, int fibers) {
            Steal e = new Steal();
            if (e.isEnabled()) {
                e.thief = thief;
                e.fibers = fibers;
                e.commit();
            }
        }

        static void stuck(String fiber, String carrier, long millis) {
            StuckCarrier e = new StuckCarrier();
            if (e.isEnabled()) {
                e.fiber = fiber;
                e.carrier = carrier;
                e.millis = millis;
                e.commit();
            }
        }
    }

    @Name("dev.weft.FiberSpawn")
    @Label("Fiber Spawn")
    @Category("Weft")
    @jdk.jfr.Enabled(false)
    static final class FiberSpawn extends Event {
        @Label("Fiber")
        String fiber;
        @Label("Scheduler")
        String scheduler;
    }

    @Name("dev.weft.FiberEnd")
    @Label("Fiber End")
    @Category("Weft")
    @StackTrace(false)
    @jdk.jfr.Enabled(false)
    static final class FiberEnd extends Event {
        @Label("Fiber")
        String fiber;
        @Label("Failure")
        @Description("What the fiber threw, if it failed")
        String failure;
    }

    @Name("dev.weft.Steal")
    @Label("Steal")
    @Category("Weft")
    @StackTrace(false)
    @jdk.jfr.Enabled(false)
    static final class Steal extends Event {
        @Label("Thief")
        String thief;
        @Label("Fibers")
        int fibers;
    }

    @Name("dev.weft.Deadlock")
    @Label("Deadlock")
    @Category("Weft")
    @StackTrace(false)
    static final class DeadlockReport extends Event {
        @Label("Report")
        String report;
    }

    @Name("dev.weft.StuckCarrier")
    @Label("Stuck Carrier")
    @Category("Weft")
    @Description("A fiber held its carrier without pausing for longer than weft.stuckCarrierMillis")
    @StackTrace(false)
    static final class StuckCarrier extends Event {
        @Label("Fiber")
        String fiber;
        @Label("Carrier")
        String carrier;
        @Label("Milliseconds")
        long millis;
    }
}
