package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.csp.Alternative;
import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.PoisonException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Poison races an alternative over the input of a synchronous channel that nobody writes: only the poison
 * can make the guard ready, whether it comes before the select or while the select waits. The select
 * returns that guard and the read that follows throws {@link PoisonException}; a lost wake-up hangs the
 * test.
 *
 * <p>Result: the guard chosen, what the read did (1: threw {@code PoisonException}, 0: returned).
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the poisoned guard was chosen and its read threw")
@Outcome(expect = FORBIDDEN, desc = "the read returned from a channel nobody writes")
@State
public class PoisonWakesAlternativeTest {
    private final One2OneChannel<Integer> channel = Channel.one2one();

    @Actor
    public void selector(II_Result r) {
        r.r1 = new Alternative(channel.in()).select();
        try {
            channel.in().read();
            r.r2 = 0;
        } catch (PoisonException e) {
            r.r2 = 1;
        }
    }

    @Actor
    public void poisoner() {
        channel.out().poison();
    }
}
