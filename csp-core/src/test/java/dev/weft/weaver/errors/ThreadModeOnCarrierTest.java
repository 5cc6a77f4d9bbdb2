package dev.weft.weaver.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A plain method may call a pausable one: on a plain thread the call blocks the thread; on a carrier it
 * fails fast instead of stalling every fiber there.
 */
@Timeout(value = 20, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class ThreadModeOnCarrierTest {

    @Pausable
    static int pausableCallee(ChannelInput<Integer> in) {
        return in.read() + 1;
    }

    /** Not pausable: calls the pausable method in thread mode. */
    static int plainHelper(ChannelInput<Integer> in) {
        return pausableCallee(in);
    }

    @Test
    void plainCallerBlocksAPlainThread() throws InterruptedException {
        One2OneChannel<Integer> ch = Channel.one2one();
        Thread writer = new Thread(new Runnable() {
            @Override
            public void run() {
                ch.out().write(41);
            }
        });
        writer.start();
        assertEquals(42, plainHelper(ch.in()));
        writer.join(5_000);
        assertFalse(writer.isAlive());
    }

    @Test
    void plainCallerFailsFastOnACarrier() {
        One2OneChannel<Integer> ch = Channel.one2one();
        int[] reached = {0};
        try (Scheduler s = Scheduler.singleThreaded()) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Weft.run(s, () -> {
                reached[0]++;
                plainHelper(ch.in());
                reached[0]++;
            }));
            String m = String.valueOf(e.getMessage());
            assertTrue(m.contains("plainHelper"), () -> "names the plain caller: " + m);
            assertTrue(m.contains("pausableCallee"), () -> "names the pausable callee: " + m);
            assertTrue(m.contains("mark") && m.indexOf("@Pausable") > m.indexOf("mark"),
                    () -> "says to mark it @Pausable: " + m);
        }
        assertEquals(1, reached[0]);
    }

    /** A pausable method hands lambdas of a plain interface, which call pausable code, to plain threads. */
    @Pausable
    static int handedToThreads(One2OneChannel<Integer> ch) {
        new Thread(() -> ch.out().write(7)).start();
        int first = ch.in().read();
        new Thread(new Runnable() {
            @Override
            public void run() {
                ch.out().write(35);
            }
        }).start();
        return first + ch.in().read();
    }

    /** A lambda of a plain interface run on the carrier: it cannot pause. */
    @Pausable
    static void writeEach(List<Integer> values, ChannelOutput<Integer> out) {
        values.forEach(v -> out.write(v));
    }

    @Test
    void aPausableMethodMayHandPlainLambdasThatPauseToThreads() {
        One2OneChannel<Integer> ch = Channel.one2one();
        int[] got = {0};
        try (Scheduler s = Scheduler.singleThreaded()) {
            Weft.run(s, () -> got[0] = handedToThreads(ch));
        }
        assertEquals(42, got[0]);
    }

    @Test
    void aPlainLambdaThatPausesOnACarrierFailsFastSayingHowToFix() {
        One2OneChannel<Integer> ch = Channel.one2one();
        try (Scheduler s = Scheduler.singleThreaded()) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> Weft.run(s, () -> writeEach(List.of(1), ch.out())));
            String m = String.valueOf(e.getMessage());
            assertTrue(m.startsWith("a lambda in ThreadModeOnCarrierTest.writeEach() calls pausable"), m);
            assertTrue(m.contains("CSProcess") && m.contains("Weft.spawn") && m.contains("plain thread"), m);
        }
    }
}
