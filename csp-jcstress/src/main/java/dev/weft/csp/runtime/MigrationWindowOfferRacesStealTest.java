package dev.weft.csp.runtime;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IL_Result;

/**
 * The owner offers batches 1 then 2 to an empty {@link MigrationWindow} while a thief polls it: the thief finds it
 * empty or takes the oldest batch, whole (its fiber written before the slot, the slot before the tail), and every
 * batch it did not take stays in the window, in order.
 *
 * <p>Result: the thief's batch (-1 for none, -2 for a batch without its fiber), what the window holds afterwards.
 */
@JCStressTest
@Outcome(id = "-1, 1 2", expect = ACCEPTABLE, desc = "the thief polled before the first offer")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the thief took the first batch")
@Outcome(expect = FORBIDDEN, desc = "a batch lost, taken out of order or twice, or seen before its fiber")
@State
public class MigrationWindowOfferRacesStealTest {
    private final MigrationWindow window = new MigrationWindow();

    @Actor
    public void owner() {
        window.offer(Numbered.batch(1));
        window.offer(Numbered.batch(2));
    }

    @Actor
    public void thief(IL_Result r) {
        r.r1 = Numbered.of(window.poll());
    }

    @Arbiter
    public void after(IL_Result r) {
        r.r2 = Numbered.drain(window);
    }
}
