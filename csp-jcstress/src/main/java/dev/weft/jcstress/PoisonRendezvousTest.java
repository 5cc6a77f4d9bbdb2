package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.csp.Alternative;
import dev.weft.csp.Channel;
import dev.weft.csp.Guards;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.PoisonException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Poison races a writer on a synchronous channel. The other side reads only if the writer is already committed
 * (an alternative over the input and a skip, input first), then poisons the channel. Either the value went across
 * before the poison, and the writer returns, or the writer met the poison, on arrival or while it waited, and
 * throws {@link PoisonException}. A writer that returns has handed its value over; poison wakes a waiting writer,
 * so the test ends in every case.
 *
 * <p>Result: the writer (0: returned, 1: poisoned), the value read (-1: none, the skip was chosen).
 */
@JCStressTest
@Outcome(id = "0, 42", expect = ACCEPTABLE, desc = "the writer was waiting: its value was read, then the poison came")
@Outcome(id = "1, -1", expect = ACCEPTABLE, desc = "no writer yet: the poison met it")
@Outcome(expect = FORBIDDEN, desc = "a writer that returned without its value read, or a value read from a poisoned write")
@State
public class PoisonRendezvousTest {
    private final One2OneChannel<Integer> channel = Channel.one2one();

    @Actor
    public void writer(II_Result r) {
        try {
            channel.out().write(42);
            r.r1 = 0;
        } catch (PoisonException e) {
            r.r1 = 1;
        }
    }

    @Actor
    public void readerThenPoisoner(II_Result r) {
        r.r2 = new Alternative(channel.in(), Guards.skip()).priSelect() == 0 ? channel.in().read() : -1;
        channel.in().poison();
    }
}
