package dev.weft.net.poll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An idle carrier whose sockets have lately had I/O polls them without blocking for a moment before it blocks in
 * epoll ({@link CarrierLoop#SPIN_NANOS}): a peer that answers at once is found by the spin, while a loop whose
 * sockets are quiet, or that has none, blocks as before.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CarrierSpinTest {
    private static final long GIVE_UP_NANOS = 30_000_000_000L;

    /**
     * A synchronous ping-pong between fibers of two nodes on one carrier, over loopback sockets: each time the
     * carrier runs out of fibers, the frame that will wake one has been written, and is found by the spin with no
     * blocking epoll_wait (loopback delivers it within the write). Then, the traffic over, the carrier blocks in
     * epoll although its connections stay open.
     */
    @Test
    void anIdleCarrierSpinsForAPromptAnswerAndBlocksOnceTheTrafficStops() {
        try (Scheduler s = Scheduler.create(1); Node a = Node.builder().scheduler(s).start();
                Node b = Node.builder().scheduler(s).start()) {
            NetChannelInput<Integer> ping = b.net2one();
            NetChannelInput<Integer> pong = a.net2one();
            NetChannelOutput<Integer> toB = a.one2net(ping.location());
            NetChannelOutput<Integer> toA = b.one2net(pong.location());
            CarrierLoop loop = CarrierLoops.of(s).loop(0);
            int rounds = 1_000;
            Weft.run(s, () -> Parallel.run(() -> {
                for (int i = 0; i < 50; i++) { // the links are up and the code warm
                    toB.write(i);
                    pong.read();
                }
            }, () -> {
                for (int i = 0; i < 50; i++) {
                    toA.write(ping.read());
                }
            }));
            long spun0 = loop.spunAwaits(), blocked0 = loop.blockingAwaits();
            Weft.run(s, () -> Parallel.run(() -> {
                for (int i = 0; i < rounds; i++) {
                    toB.write(i);
                    assertEquals(i, pong.read());
                }
            }, () -> {
                for (int i = 0; i < rounds; i++) {
                    toA.write(ping.read());
                }
            }));
            long spun = loop.spunAwaits() - spun0, blocked = loop.blockingAwaits() - blocked0;
            assertTrue(spun >= rounds && spun > 10 * blocked, spun + " awaits answered by the spin, " + blocked
                    + " blocked, in " + rounds + " round trips");
            awaitBlockedInPoll(loop.carrier());
        }
    }

    /**
     * A loop without connections never spins: its carrier, woken by timers and by a plain thread, blocks in
     * epoll each time it has nothing to run.
     */
    @Test
    void aLoopWithoutConnectionsNeverSpins() throws Exception {
        try (Scheduler s = Scheduler.create(1)) {
            CarrierLoop loop = CarrierLoops.of(s).loop(0);
            One2OneChannel<Integer> c = Channel.one2one();
            int rounds = 200;
            Thread writer = new Thread(() -> {
                for (int i = 0; i < rounds; i++) {
                    c.out().write(i); // wakes the carrier in its loop's epoll_wait
                }
            }, "writer");
            writer.start();
            Weft.run(s, () -> {
                for (int i = 0; i < rounds; i++) {
                    assertEquals(i, c.in().read());
                    Timer.sleep(Duration.ofNanos(50_000)); // a timer bounds the wait
                }
            });
            writer.join();
            assertEquals(0, loop.spunAwaits());
            assertTrue(loop.blockingAwaits() >= rounds / 2, loop.blockingAwaits() + " blocking awaits");
        }
    }

    /** Waits until {@code carrier} blocks in its loop's poll (a native wait in {@code await}, not in its spin). */
    private static void awaitBlockedInPoll(Thread carrier) {
        long giveUp = System.nanoTime() + GIVE_UP_NANOS;
        StackTraceElement[] stack;
        do {
            Thread.onSpinWait();
            stack = carrier.getStackTrace();
        } while (!blockedInPoll(stack) && System.nanoTime() - giveUp < 0);
        assertTrue(blockedInPoll(stack), "the idle carrier does not block in its poll: " + Arrays.toString(stack));
    }

    private static boolean blockedInPoll(StackTraceElement[] stack) {
        boolean inAwait = false;
        for (StackTraceElement e : stack) {
            if (e.getClassName().equals(CarrierLoop.class.getName())) {
                if (e.getMethodName().equals("spinFor")) {
                    return false;
                }
                inAwait |= e.getMethodName().equals("await");
            }
        }
        return inAwait && stack.length > 0 && stack[0].isNativeMethod();
    }
}
