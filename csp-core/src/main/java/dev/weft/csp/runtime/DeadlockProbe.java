package dev.weft.csp.runtime;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

/**
 * A question put to the garbage collector about the fibers of one run, all parked: can anything but those
 * fibers still reach them? While the probe is out, the run's fibers hang in a ring of their own live-list
 * links ({@code liveNext}, {@code livePrev}) closed by the probe's {@link RingEnd}, which leads back to the
 * probe, and the runtime holds neither them nor the probe strongly: the pool keeps a weak reference. So the ring stays reachable only while something
 * outside reaches one of its fibers, or what one waits on (an executor task's lambda that holds a channel,
 * a plain thread's stack, a fiber of another scheduler, a fiber handle kept somewhere).
 *
 * <p>If a collection finds the ring unreachable, nothing can ever wake one of its fibers: the collector
 * queues this probe for finalization, and {@link #finalize()} hands it, fibers and all, to
 * {@link DeadlockProbes}, which puts the fibers back in their lists and has them reported. Otherwise the
 * probe is not finalized while it is out, and the pool takes the fibers back as soon as a worker wakes.
 * This is the one way in plain Java to ask the collector whether objects are unreachable and still have
 * them afterwards. Its members are changed under the pool's probe lock only.
 */
final class DeadlockProbe {
    final WorkerPool pool;
    /** Closes the ring of fibers; reaching any of them reaches it, and through it this probe. */
    private final RingEnd end = new RingEnd(this);
    /** The pool's handle on this probe: cleared by the collector once the ring is unreachable. */
    final WeakReference<DeadlockProbe> handle = new WeakReference<>(this);
    /** True while the fibers hang in the ring (not yet taken back). */
    boolean out;
    /** When the fibers were hung: since then, every one of them has been parked and the pool at rest. */
    final long sentAt = System.nanoTime();
    /** Whether the run's hang has been reported (see {@link DeadlockProbing#probeRefuted}). */
    boolean hangReported;
    /** Collections that found the ring still reachable. */
    int refutations;

    DeadlockProbe(WorkerPool pool) {
        this.pool = pool;
    }

    /**
     * The node that closes a probe's ring: a ring is made of live-list links, which join schedulables. Its
     * link to the probe is what makes the probe reachable exactly as long as one fiber of the ring is.
     */
    private static final class RingEnd extends Schedulable {
        final DeadlockProbe probe;

        RingEnd(DeadlockProbe probe) {
            this.probe = probe;
            liveNext = this;
            livePrev = this;
        }

        @Override
        protected void runSlice() {
            throw new IllegalStateException("a deadlock probe's ring end is not a fiber");
        }
    }

    /** Hangs {@code c}, just taken out of its worker's live list, in the ring. */
    void hang(Schedulable c) {
        RuntimeEvents.fiberProbed(c);
        c.livePrev = end.livePrev;
        c.liveNext = end;
        end.livePrev.liveNext = c;
        end.livePrev = c;
    }

    /** The fibers in the ring, in ring order. */
    List<Schedulable> fibers() {
        List<Schedulable> all = new ArrayList<>();
        for (Schedulable c = end.liveNext; c != end; c = c.liveNext) {
            all.add(c);
        }
        return all;
    }

    /** Puts every fiber back in the live list of its home worker, and empties the ring. */
    void takeBack() {
        Schedulable c = end.liveNext;
        end.liveNext = end;
        end.livePrev = end;
        out = false;
        while (c != end) {
            Schedulable next = c.liveNext;
            c.home.live.reattach(c);
            c = next;
        }
    }

    /** The collector found the ring unreachable: the fibers are resurrected with this node, for their report. */
    @Override
    @SuppressWarnings({"deprecation", "removal"}) // finalization: see the class comment
    protected void finalize() {
        DeadlockProbes.unreachable(this);
    }
}
