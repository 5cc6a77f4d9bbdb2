package dev.weft.csp.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Alternative;
import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelClosedException;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.Fiber;
import dev.weft.csp.Pausable;
import dev.weft.csp.Weft;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Shared ends with a waiting select, on fibers, under many seeded interleavings: one writer's values in order,
 * nothing read after the end, readiness that holds until someone takes. Each seed replays its interleaving,
 * so a failure names the seed that reproduces it.
 */
class SharedEndsExplorationTest {
    private static final int SEEDS = Integer.getInteger("weft.sharedEndsExploration.seeds", 300);
    private final Explorer explorer = new Explorer(0.4, Explorer.DEFAULT_STEP_BUDGET);

    /** A selecting reader, a plain reader behind it, one writer of 1, 2, 3 into a buffer of one. */
    @Test
    @Timeout(120)
    void aReaderBehindASelectReadsOneWritersValuesInOrder() {
        assertNull(explorer.explore(0, SEEDS, ctx -> {
            Any2AnyChannel<Integer> c = Channel.any2any(1);
            List<Integer> a = new ArrayList<>();
            List<Integer> b = new ArrayList<>();
            Fiber fa = Weft.spawn(() -> {
                new Alternative(c.in()).priSelect();
                pause(3); // slow to follow its choice
                a.add(c.in().read());
            });
            Fiber fb = Weft.spawn(() -> {
                b.add(c.in().read());
                b.add(c.in().read());
            });
            for (int i = 1; i <= 3; i++) {
                c.out().write(i);
            }
            fa.join();
            fb.join();
            assertTrue(b.get(0) < b.get(1), "one writer's values out of order: " + b);
            List<Integer> all = new ArrayList<>(a);
            all.addAll(b);
            Collections.sort(all);
            assertEquals(List.of(1, 2, 3), all);
        }));
    }

    /**
     * Selecting and plain readers and writers, then a close: every write that returned is read once, and no
     * reader reads after it has seen the end.
     */
    @Test
    @Timeout(120)
    void everyValueWrittenBeforeTheCloseIsReadBeforeTheEnd() {
        for (int capacity : new int[] {0, 1}) {
            assertNull(explorer.explore(1000, SEEDS, ctx -> {
                Any2AnyChannel<Integer> c = Channel.any2any(capacity);
                List<Integer> written = new ArrayList<>();
                List<Integer> read = new ArrayList<>();
                Fiber selectingReader = Weft.spawn(() -> {
                    new Alternative(c.in()).priSelect();
                    pause(2);
                    readToTheEnd(c.in(), read);
                });
                Fiber plainReader = Weft.spawn(() -> readToTheEnd(c.in(), read));
                Fiber selectingWriter = Weft.spawn(() -> {
                    new Alternative(c.out()).priSelect();
                    pause(2);
                    try {
                        c.out().write(1);
                        written.add(1);
                    } catch (ChannelClosedException refused) {
                        // the close came first: nothing written
                    }
                });
                Fiber plainWriter = Weft.spawn(() -> {
                    try {
                        c.out().write(2);
                        written.add(2);
                    } catch (ChannelClosedException refused) {
                        // the close came first
                    }
                });
                pause(3);
                c.out().close();
                for (Fiber f : List.of(selectingReader, plainReader, selectingWriter, plainWriter)) {
                    f.join();
                }
                Collections.sort(written);
                Collections.sort(read);
                assertEquals(written, read);
            }));
        }
    }

    /** A select on the input that found a writer's select ready finds it ready until the read takes it. */
    @Test
    @Timeout(120)
    void anInputFoundReadyStaysReadyUntilTheRead() {
        assertNull(explorer.explore(2000, SEEDS, ctx -> {
            Any2AnyChannel<Integer> c = Channel.any2any();
            Fiber w = Weft.spawn(() -> {
                new Alternative(c.out()).priSelect();
                pause(3);
                c.out().write(5);
            });
            Alternative in = new Alternative(c.in());
            while (in.selectNow() != 0) {
                Fiber.yield();
            }
            for (int i = 0; i < 4; i++) {
                assertEquals(0, in.selectNow(), "ready, then not ready, with nothing taken");
                assertTrue(c.in().pending());
                Fiber.yield();
            }
            assertEquals(5, c.in().read());
            w.join();
        }));
    }

    @Pausable
    private static void pause(int yields) {
        for (int i = 0; i < yields; i++) {
            Fiber.yield();
        }
    }

    /** Reads until the end, then once more, which must be the end again. */
    @Pausable
    private static void readToTheEnd(ChannelInput<Integer> in, List<Integer> read) {
        try {
            for (;;) {
                read.add(in.read());
            }
        } catch (ChannelClosedException end) {
            try {
                int late = in.read();
                throw new AssertionError("read " + late + " after the end");
            } catch (ChannelClosedException again) {
                // as it must be
            }
        }
    }
}
