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
     * Runs {@code test} with parks that never time out: a lost wake-up then hangs the test (and its timeout
     * fails it) instead of costing a waiter the backstop.
     */
    public static void withoutBackstop(Runnable test) {
        long saved = ParkingLot.backstopNanos;
        ParkingLot.backstopNanos = Long.MAX_VALUE / 4;
        try {
            test.run();
        } finally {
            ParkingLot.backstopNanos = saved;
        }
    }
}
