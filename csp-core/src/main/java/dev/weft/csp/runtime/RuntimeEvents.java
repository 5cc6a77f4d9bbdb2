package dev.weft.csp.runtime;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * Weft's JDK Flight Recorder events, category "Weft": fiber spawn, park (what it waited on and how long, above
 * 20 ms) and end, steals between carriers, deadlock reports, carriers stuck in one slice. Record them as any JFR event ({@code jcmd PID JFR.start}, or
 * {@code -XX:StartFlightRecording}); spawn, park, end and steal events are off in JFR's default settings (there
 * can be millions), switch them on by name, with a {@code +} since no settings file names them
 * ({@code jcmd PID JFR.start settings=profile +dev.weft.FiberSpawn#enabled=true}; JfrTest runs it). While nothing records
 * them an event costs a test of a flag: no event object is made. A runtime without the
 * {@code jdk.jfr} module gets no events and pays nothing.
 *
 * <p>The event classes load only once the JDK's flight recorder is up (a recording started at launch, or later by
 * {@code jcmd}): on JDK 17 the first event class to load starts the recorder's machinery (some 200 classes,
 * reflection proxies, a handler class generated per event), and a short program paid a third of a second of
 * processor time for it at its first fiber while nothing recorded.
 */
public final class RuntimeEvents {
    /** Set once the flight recorder is up (by its listener, on the thread that started it): see the class comment. */
    private static volatile boolean recorderUp;
    /** Set once a park has been recorded: only then does a resume look for one to end. */
    private static volatile boolean parksRecorded;

    static {
        if (ModuleLayer.boot().findModule("jdk.jfr").isPresent()) {
            RecorderWatch.start();
        }
    }

    private RuntimeEvents() {
    }

    /** Tells {@link #recorderUp} when the recorder is up; at once if it already is. Loaded only with jdk.jfr. */
    private static final class RecorderWatch implements FlightRecorderListener {
        static void start() {
            FlightRecorder.addListener(new RecorderWatch());
        }

        @Override
        public void recorderInitialized(FlightRecorder recorder) {
            recorderUp = true;
        }
    }

    /** A fiber was started. */
    public static void fiberSpawned(Object fiber, String scheduler) {
        if (recorderUp) {
            Events.spawned(fiber, scheduler);
        }
    }

    /** A fiber ended; {@code failure} is what it threw, or null. */
    public static void fiberEnded(Object fiber, Throwable failure) {
        if (recorderUp) {
            Events.ended(fiber, failure);
        }
    }

    /**
     * A fiber parks on {@code blocker}: called before anything can wake it. While {@code dev.weft.FiberPark} is
     * recorded, the event begins here and ends when the fiber resumes ({@link #fiberResumed}).
     */
    public static void fiberParking(Object fiber, Object blocker) {
        if (recorderUp) {
            Events.parking(fiber, blocker);
        }
    }

    /** A fiber resumes: ends its park event, if one was begun. */
    public static void fiberResumed(Object fiber) {
        if (parksRecorded) {
            Events.resumed(fiber);
        }
    }

    /**
     * A parked fiber is handed to a deadlock probe: its park event, if one was begun, is dropped, as the side
     * table that keeps it would keep the fiber reachable (see {@link DeadlockProbe}).
     */
    static void fiberProbed(Object fiber) {
        if (parksRecorded) {
            Events.forget(fiber);
        }
    }

    /** A deadlock was reported. */
    public static void deadlock(String report) {
        if (recorderUp) {
            Events.deadlock(report);
        }
    }

    static void stolen(String thief, int fibers) {
        if (recorderUp) {
            Events.stolen(thief, fibers);
        }
    }

    static void stuckCarrier(String fiber, String carrier, long millis) {
        if (recorderUp) {
            Events.stuck(fiber, carrier, millis);
        }
    }

    /** The events themselves, loaded only where the jdk.jfr module is. */
    private static final class Events {
        // One instance of each frequent event, only asked whether it is enabled: the fast paths allocate
        // nothing while nothing records (isEnabled reads the event type's settings, shared by all instances).
        private static final FiberPark PARK = new FiberPark();
        private static final FiberSpawn SPAWN = new FiberSpawn();
        private static final FiberEnd END = new FiberEnd();
        /** Parks under way while FiberPark is recorded: a fiber has no field to spare for its event. */
        private static final java.util.Map<Object, FiberPark> PARKS = new java.util.concurrent.ConcurrentHashMap<>();

        static void parking(Object fiber, Object blocker) {
            if (PARK.isEnabled()) {
                FiberPark e = new FiberPark();
                e.begin();
                e.fiber = String.valueOf(fiber);
                e.blocker = String.valueOf(blocker);
                PARKS.put(fiber, e);
                parksRecorded = true;
            }
        }

        static void resumed(Object fiber) {
            FiberPark e = PARKS.remove(fiber);
            if (e != null) {
                e.commit(); // its duration: from the park to this resume; below the threshold, dropped
            }
        }

        static void forget(Object fiber) {
            PARKS.remove(fiber);
        }

        static void spawned(Object fiber, String scheduler) {
            if (SPAWN.isEnabled()) {
                FiberSpawn e = new FiberSpawn();
                e.fiber = String.valueOf(fiber);
                e.scheduler = scheduler;
                e.commit();
            }
        }

        static void ended(Object fiber, Throwable failure) {
            if (END.isEnabled()) {
                FiberEnd e = new FiberEnd();
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

    @Name("dev.weft.FiberPark")
    @Label("Fiber Park")
    @Category("Weft")
    @Description("A fiber waited: on what, and for how long (from its park to its resume)")
    @StackTrace(false)
    @jdk.jfr.Enabled(false)
    @jdk.jfr.Threshold("20 ms")
    static final class FiberPark extends Event {
        @Label("Fiber")
        String fiber;
        @Label("Waited On")
        String blocker;
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
