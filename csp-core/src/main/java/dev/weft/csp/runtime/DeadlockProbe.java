package dev.weft.csp.runtime;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;

/**
 * A question put to the garbage collector about the fibers of one run, all parked: can anything but those
 * fibers still reach them? While the probe is out, the run's fibers hang in a ring of their own live-list
 * links ({@code liveNext}, {@code livePrev}) closed by this node, and the runtime holds neither them nor
 * this node strongly: the pool keeps a weak reference. So the ring stays reachable only while something
 * outside reaches one of its fibers, or what one waits on (an executor task's lambda that holds a channel,
 * a plain thread's stack, a fiber of another scheduler, a fiber handle kept somewhere).
 *
 * <p>If a collection finds the ring unreachable, nothing can ever wake one of its fibers: the collector
 * queues this node for finalization, and {@link #finalize()} hands it, fibers and all, to
 * {@link DeadlockProbes}, which puts the fibers back in their lists and has them reported. Otherwise the
 * node is not finalized while it is out, and the pool takes the fibers back as soon as a worker wakes.
 * This is the one way in plain Java to ask the collector whether objects are unreachable and still have
 * them afterwards. Its members are changed under the pool's probe lock only.
 */
final class DeadlockProbe extends Schedulable {
    final WorkerPool pool;
    /** The pool's handle on this probe: cleared by the collector once the ring is unreachable. */
    final WeakReference<DeadlockProbe> handle = new WeakReference<>(this);
    /** True while the fibers hang in the ring (not yet taken back). */
    boolean out;
    /** When the fibers were hung: since then, every one of them has been parked and the pool at rest. */
    final long sentAt = System.nanoTime();
    /** Whether the run's hang has been reported (see {@link WorkerPool#probeRefuted}). */
    boolean hangReported;

    DeadlockProbe(WorkerPool pool) {
        this.pool = pool;
        liveNext = this;
        livePrev = this;
    }

    /** Hangs {@code c}, just taken out of its worker's live list, in the ring. */
    void hang(Schedulable c) {
        RuntimeEvents.fiberProbed(c);
        c.livePrev = livePrev;
        c.liveNext = this;
        livePrev.liveNext = c;
        livePrev = c;
    }

    /** The fibers in the ring, in ring order. */
    List<Schedulable> fibers() {
        List<Schedulable> all = new ArrayList<>();
        for (Schedulable c = liveNext; c != this; c = c.liveNext) {
            all.add(c);
        }
        return all;
    }

    /** Puts every fiber back in the live list of its home worker, and empties the ring. */
    void takeBack() {
        Schedulable c = liveNext;
        liveNext = this;
        livePrev = this;
        out = false;
        while (c != this) {
            Schedulable next = c.liveNext;
            c.home.live.reattach(c);
            c = next;
        }
    }

    @Override
    protected void runSlice() {
        throw new IllegalStateException("a deadlock probe is not a fiber");
    }

    /** The collector found the ring unreachable: the fibers are resurrected with this node, for their report. */
    @Override
    @SuppressWarnings({"deprecation", "removal"}) // finalization: see the class comment
    protected void finalize() {
        DeadlockProbes.unreachable(this);
    }
}
