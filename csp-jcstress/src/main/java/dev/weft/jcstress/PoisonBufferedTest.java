package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.csp.Alternative;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.PoisonException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Poison races a read of a buffered channel that already holds a value. The read either takes the value
 * (it came first) or throws {@link PoisonException} (poison drops buffered values); either way the channel
 * is poisoned for good afterwards.
 *
 * <p>Result: the value read (-1: the read threw {@code PoisonException}), what a later read does (1: throws
 * {@code PoisonException}, 2: finds a value, 0: would wait).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the read came first and took the value")
@Outcome(id = "-1, 1", expect = ACCEPTABLE, desc = "the poison came first and dropped the value")
@Outcome(expect = FORBIDDEN, desc = "a wrong value, or a channel not poisoned after the poison")
@State
public class PoisonBufferedTest {
    private final One2OneChannel<Integer> channel = Filled.one2one(1);

    @Actor
    public void poisoner() {
        channel.out().poison();
    }

    @Actor
    public void reader(II_Result r) {
        try {
            r.r1 = channel.in().read();
        } catch (PoisonException e) {
            r.r1 = -1;
        }
    }

    @Arbiter
    public void after(II_Result r) {
        // selectNow() never waits; a poisoned input counts as ready, so the read below cannot wait either.
        if (new Alternative(channel.in()).selectNow() < 0) {
            r.r2 = 0;
            return;
        }
        try {
            channel.in().read();
            r.r2 = 2;
        } catch (PoisonException e) {
            r.r2 = 1;
        }
    }
}
