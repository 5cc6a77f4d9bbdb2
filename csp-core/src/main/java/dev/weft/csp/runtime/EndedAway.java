package dev.weft.csp.runtime;

/**
 * The fibers of other homes that ended on one worker (they were stolen): they leave their homes' live lists
 * together, {@value #LIMIT} at a time, or fewer as the worker rotates after a full dispatch budget or parks, or
 * as the {@code Weft.run} of one of them returns, so that a thief running fibers that another worker goes on
 * spawning does not take that worker's list lock once for each.
 */
final class EndedAway {
    /** The most fibers that end here before they leave their homes' live lists. */
    private static final int LIMIT = 64;

    private final Inbox fibers = new Inbox();
    /** Held while fibers taken from {@link #fibers} leave their lists (see {@link #leaveHomeLists}). */
    private final RuntimeLock lock = new RuntimeLock();
    /** About how many wait (the owner's count: others only take). */
    private int count;

    /** Adds a fiber that ended here; true once the list is full: leave the home lists then. Owner only. */
    boolean add(Schedulable c) {
        fibers.push(c); // its link is free: an ended fiber is in no queue
        return ++count >= LIMIT;
    }

    /** As {@link #leaveHomeLists}, for the owner, which restarts its count. */
    boolean leaveHomeListsNow() {
        count = 0;
        return leaveHomeLists();
    }

    /**
     * Takes the fibers out of their homes' live lists, one lock per run of fibers of one home; true if there were
     * any. Any thread: under this list's lock, so that whoever comes second (even to find nothing left) waits until
     * the fibers that the first took are out.
     */
    boolean leaveHomeLists() {
        Schedulable c;
        lock.lock();
        try {
            c = fibers.takeAll();
            for (Schedulable next = c; next != null; ) {
                next = next.home.live.removeRun(next);
            }
        } finally {
            lock.unlock();
        }
        return c != null;
    }
}
