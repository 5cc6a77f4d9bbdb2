package dev.weft.csp.runtime;

/** What tests of the runtime's locks see of the {@link ParkingLot}, from any package. */
public final class LotProbe {
    private LotProbe() {
    }

    /** Waits until {@code t} is parked in the lot. */
    public static void awaitParked(Thread t) {
        while (!ParkingLot.isParkedHere(t) || t.getState() != Thread.State.TIMED_WAITING) {
            if (!t.isAlive()) {
                throw new AssertionError(t + " ended instead of parking");
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted (timed out?) while waiting for " + t + " to park");
            }
            Thread.onSpinWait();
        }
    }

    /**
     * How often the calling thread, parked for a lock, found by its own check of the lock's word that no unlock
     * would wake it (a waiters bit lost to a release store, a fault's plain release). Zero after a wait that an
     * unlock ended.
     */
    public static int leftOnOwnCheck() {
        return ParkingLot.leftOnOwnCheck();
    }
}
