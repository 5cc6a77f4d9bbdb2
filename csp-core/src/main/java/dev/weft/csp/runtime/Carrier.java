package dev.weft.csp.runtime;

/** A thread that runs fibers for a scheduler. Blocking it would stall every fiber it serves. */
public final class Carrier extends Thread {
    final Worker worker;

    Carrier(Worker worker, String name) {
        super(worker, name);
        this.worker = worker;
        setDaemon(true);
    }
}
