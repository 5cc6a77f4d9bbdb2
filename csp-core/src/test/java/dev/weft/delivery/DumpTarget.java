package dev.weft.delivery;

import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;

/**
 * A program whose fiber waits for orders that never come (its channel held by main, so no deadlock is
 * reported): the target of {@code csp-weaver.jar dump PID}. Prints "ready" once the fiber is parked, and ends
 * when its standard input closes.
 */
public final class DumpTarget {
    private DumpTarget() {
    }

    @Pausable
    static void waitForOrders(One2OneChannel<String> orders) {
        orders.in().read();
    }

    public static void main(String[] args) throws Exception {
        Scheduler s = Scheduler.create(1);
        One2OneChannel<String> orders = Channel.one2one();
        Thread app = new Thread(() -> Weft.run(s, () -> Weft.spawn("order-desk", () -> waitForOrders(orders)).join()));
        app.setDaemon(true);
        app.start();
        long end = System.nanoTime() + 20_000_000_000L;
        while (!s.dumpFibers().contains("[order-desk]\" parked")) {
            if (System.nanoTime() - end > 0) {
                throw new AssertionError("the fiber never parked:\n" + s.dumpFibers());
            }
            Thread.sleep(10);
        }
        System.out.println("ready");
        System.out.flush();
        while (System.in.read() >= 0) {
            // until the parent closes it (or dies); the fiber's thread is a daemon: the JVM ends with main
        }
    }
}
