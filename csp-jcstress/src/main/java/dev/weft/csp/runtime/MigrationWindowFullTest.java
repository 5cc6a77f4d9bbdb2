package dev.weft.csp.runtime;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IZL_Result;

/**
 * A full {@link MigrationWindow} (batches 100 to 115): a thief polls the oldest while the owner offers batch 1. The
 * offer succeeds only once the thief's compare-and-set has freed a slot, and then it reuses the very slot the thief
 * read: the thief must still get 100 (it read the slot before its compare-and-set), and the window ends holding
 * 101 to 115, then 1 if the offer was accepted.
 *
 * <p>Result: the thief's batch, whether the offer was accepted, what the window holds afterwards.
 */
@JCStressTest
@Outcome(id = "100, false, 101-115", expect = ACCEPTABLE, desc = "the offer found the window full (the thief not yet done, or its head not yet seen)")
@Outcome(id = "100, true, 101-115 1", expect = ACCEPTABLE, desc = "the offer took the slot the thief freed")
@Outcome(expect = FORBIDDEN, desc = "the thief got the owner's new batch, a batch lost or duplicated, or an offer overwrote a batch")
@State
public class MigrationWindowFullTest {
    private final MigrationWindow window = new MigrationWindow();

    public MigrationWindowFullTest() {
        for (int i = 0; i < MigrationWindow.CAPACITY; i++) {
            window.offer(Numbered.batch(100 + i));
        }
    }

    @Actor
    public void owner(IZL_Result r) {
        r.r2 = window.offer(Numbered.batch(1));
    }

    @Actor
    public void thief(IZL_Result r) {
        r.r1 = Numbered.of(window.poll());
    }

    @Arbiter
    public void after(IZL_Result r) {
        r.r3 = Numbered.drain(window);
    }
}
