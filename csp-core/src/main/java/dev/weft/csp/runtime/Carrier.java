package dev.weft.csp.runtime;

/** A thread that runs fibers for a scheduler. Blocking it would stall every fiber it serves. */
public final class Carrier extends Thread {
    final Worker worker;
    /** This thread as the kernel sees it (null until it runs, or where the kernel does not show it). */
    private volatile KernelTask task;

    Carrier(Worker worker, String name) {
        super(worker, name);
        this.worker = worker;
        setDaemon(true);
    }

    @Override
    public void run() {
        task = KernelTask.ofCurrentThread(); // only the thread itself can name its task
        super.run();
    }

    /** Whether the kernel says this thread is runnable now (running or waiting for a processor), not sleeping. */
    boolean kernelSaysRunnable() {
        KernelTask t = task;
        return t != null && t.isRunnable();
    }
}
