package dev.weft.weaver.scenarios;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Woven code shared by fibers and plain threads at once: fibers fed by threads, many threads in thread mode. */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MixedModesTest {

    @Test
    void fiberScenariosFedByPlainThreads() {
        int[] in = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3};
        long sum = 0;
        double weight = 1;
        for (int i = 0; i < 10; i++) {
            sum += (long) (in[i] * weight) + i;
            weight *= 1.5;
        }
        try (Scheduler s = Scheduler.create(2)) {
            for (int i = 0; i < 20; i++) {
                assertEquals(sum, ScenarioHarness.inFiberFedByThread(s, in, ControlFlowTest::forLoop));
                assertEquals("p" + (3 + 5) + 12 + ":" + 3 * Source.wide(7),
                        ScenarioHarness.inFiberFedByThread(s, new int[] {5, 6, 7}, src -> {
                            ClassShapesTest.Modifiers m = new ClassShapesTest.Modifiers(3);
                            return m.protectedInstance(src) + ":" + m.finalInstance(src);
                        }));
            }
        }
    }

    /** Eight plain threads run the same woven methods in thread mode at the same time. */
    @Test
    void concurrentThreadModeCalls() throws InterruptedException {
        int[] in = RecursionTestInputs.INPUTS;
        long expected = RecursionTest.plainSumDown(new Plain(in), in.length / 2);
        ConcurrentLinkedQueue<Object> results = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread th = new Thread(new Runnable() {
                @Override
                public void run() {
                    try {
                        for (int k = 0; k < 5; k++) {
                            results.add(ScenarioHarness.inThread(in, s -> RecursionTest.sumDown(s, in.length / 2)));
                        }
                    } catch (Throwable e) {
                        results.add(e);
                    }
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join(20_000);
        }
        assertEquals(40, results.size(), () -> "results: " + results);
        for (Object r : results) {
            assertEquals(expected, r);
        }
    }

    /** Inputs for {@link #concurrentThreadModeCalls()}: 50 levels, a read on the way down and up. */
    static final class RecursionTestInputs {
        static final int[] INPUTS = new int[100];

        static {
            for (int i = 0; i < INPUTS.length; i++) {
                INPUTS[i] = i * 37 % 101 - 50;
            }
        }
    }
}
