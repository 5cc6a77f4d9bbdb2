package dev.weft.csp;

/**
 * Run in a child JVM by {@link DeadlockJvmOptionsTest}: a run deadlocks on a barrier; once its scheduler's
 * first deadlock probe has ended (found reachable, or not collected at all), prints {@code waiting} if the run
 * still waits, {@code ended} if it was reported, and exits 0.
 */
public final class DeadlockProbeChild {
    private DeadlockProbeChild() {
    }

    /** Takes no arguments. */
    public static void main(String[] args) {
        Scheduler s = Scheduler.singleThreaded();
        Thread run = new Thread(() -> {
            try {
                Weft.run(s, () -> new Barrier(2).sync());
            } catch (DeadlockException expected) {
                // reported: the parent sees "ended"
            }
        });
        run.setDaemon(true);
        run.start();
        while (s.pool.deadlockProbesRefuted() == 0 && run.isAlive()) {
            Thread.yield();
        }
        System.out.println(run.isAlive() ? "waiting" : "ended");
        System.exit(0);
    }
}
