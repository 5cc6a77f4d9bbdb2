package dev.weft.csp.internal;

import dev.weft.csp.Fiber;
import dev.weft.csp.runtime.ProcessFrames;
import dev.weft.csp.runtime.Schedulable;
import dev.weft.csp.runtime.WorkerPool;
import java.io.PrintStream;
import java.util.List;

/**
 * Writes a fiber dump: every live fiber of a scheduler with its state, what it waits on, and its woven
 * stack, innermost first, as the pause sites its frames recorded while they unwound. A running fiber shows
 * its carrier's stack instead. Read without stopping anything: a best-effort snapshot.
 */
public final class FiberDump {
    private FiberDump() {
    }

    public static void write(WorkerPool pool, PrintStream out) {
        List<Schedulable> live = pool.liveSnapshot();
        live.removeIf(c -> ((Fiber) c).isDone()); // ended on another carrier, about to leave its home's list
        out.println("Weft scheduler " + pool.name() + ": " + pool.size() + (pool.size() == 1 ? " worker, " : " workers, ")
                + live.size() + (live.size() == 1 ? " live fiber" : " live fibers") + ", " + pool.steals()
                + " batches stolen");
        for (Schedulable c : live) {
            write((Fiber) c, out);
        }
    }

    /** The scheduling state, for dumps: runnable, running, parked or done. */
    static String stateName(Fiber f) {
        switch (f.state) {
            case Fiber.RUNNABLE: return "runnable";
            case Fiber.RUNNING_STATE: case Fiber.RUNNING_WOKEN: return f.pauseKind == Fiber.YIELDED ? "runnable (yielded)" : "running";
            case Fiber.PARKED: case Fiber.QUEUED: return "parked";
            case Fiber.THREAD_BOUND: return "on its thread";
            default: return "done";
        }
    }

    /** How many times a fiber that moves while its stack is read is read again before it is shown as running. */
    private static final int READS = 3;

    /**
     * Writes one fiber's entry: its name, state, what it waits on, and its woven stack. A fiber that resumes
     * or pauses while its saved frames are read (they are overwritten then) is read again, and after
     * {@value #READS} tries shown as running, without frames.
     */
    public static void write(Fiber f, PrintStream out) {
        String state = stateName(f);
        String[] sites = f.pauseSites();
        for (int read = 1; !state.equals(stateName(f)); read++) {
            if (read == READS) {
                state = "running";
                sites = new String[0];
                break;
            }
            state = stateName(f);
            sites = f.pauseSites();
        }
        Object blocker = f.blocker();
        StringBuilder head = new StringBuilder().append('"').append(f).append("\" ").append(state);
        if (state.equals("parked")) {
            head.append(blocker != null ? ", waiting on " + blocker : ", waiting for unpark()");
        }
        Thread carrier = state.equals("running") ? f.carrierThread() : null;
        if (carrier != null) {
            head.append(" on ").append(carrier.getName());
        }
        out.println(head);
        if (carrier != null) {
            for (StackTraceElement e : ProcessFrames.of(carrier.getStackTrace())) {
                out.println("\tat " + e);
            }
        } else {
            for (String site : sites) {
                out.println("\tat " + site);
            }
        }
        out.println();
    }
}
