package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.csp.Alternative;
import dev.weft.csp.Channel;
import dev.weft.csp.Guards;
import dev.weft.csp.One2OneChannel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * An alternative over an output guard and a skip, racing a plain reader of a synchronous channel. With
 * priority to the output, the select chooses it when the reader already waits, and the skip
 * otherwise; the writer then writes a value that says which it chose, so that the reader always gets
 * one.
 *
 * <p>Result: the guard chosen (0: the output, 1: the skip), the value read.
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the reader was waiting: the output guard won")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "no reader yet: the skip won, then a plain write")
@Outcome(expect = FORBIDDEN, desc = "the reader got a value the writer did not send after its choice")
@State
public class OutputGuardTest {
    private final One2OneChannel<Integer> channel = Channel.one2one();

    @Actor
    public void writer(II_Result r) {
        int i = new Alternative(channel.out(), Guards.skip()).priSelect();
        r.r1 = i;
        channel.out().write(i == 0 ? 1 : 2);
    }

    @Actor
    public void reader(II_Result r) {
        r.r2 = channel.in().read();
    }
}
