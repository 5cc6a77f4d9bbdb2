package dev.weft.csp.runtime;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIL_Result;

/**
 * The owner of a {@link MigrationWindow} and a thief both poll its one batch (1): the compare-and-set of the head
 * gives it to exactly one of them, the other finds the window empty, and nothing is left.
 *
 * <p>Result: the owner's batch, the thief's (-1 for none), what the window holds afterwards ("none" for nothing).
 */
@JCStressTest
@Outcome(id = "1, -1, none", expect = ACCEPTABLE, desc = "the owner took the batch")
@Outcome(id = "-1, 1, none", expect = ACCEPTABLE, desc = "the thief took the batch")
@Outcome(expect = FORBIDDEN, desc = "the batch taken by both, by neither, or left behind")
@State
public class MigrationWindowLastBatchTest {
    private final MigrationWindow window = new MigrationWindow();

    public MigrationWindowLastBatchTest() {
        window.offer(Numbered.batch(1));
    }

    @Actor
    public void owner(IIL_Result r) {
        r.r1 = Numbered.of(window.poll());
    }

    @Actor
    public void thief(IIL_Result r) {
        r.r2 = Numbered.of(window.poll());
    }

    @Arbiter
    public void after(IIL_Result r) {
        r.r3 = Numbered.drain(window);
    }
}
