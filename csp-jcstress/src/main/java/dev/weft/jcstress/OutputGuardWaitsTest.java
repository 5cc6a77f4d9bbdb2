package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.csp.Alternative;
import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * An alternative whose only guard is the output of a synchronous channel, racing a plain reader: the select
 * finds the reader already waiting, or registers and waits until the reader's arrival claims it. Either way
 * the write that follows goes to that reader.
 *
 * <p>Result: the guard chosen, the value read.
 */
@JCStressTest
@Outcome(id = "0, 42", expect = ACCEPTABLE, desc = "the output guard was chosen and its write reached the reader")
@Outcome(expect = FORBIDDEN, desc = "a wrong choice or value")
@State
public class OutputGuardWaitsTest {
    private final One2OneChannel<Integer> channel = Channel.one2one();

    @Actor
    public void writer(II_Result r) {
        r.r1 = new Alternative(channel.out()).select();
        channel.out().write(42);
    }

    @Actor
    public void reader(II_Result r) {
        r.r2 = channel.in().read();
    }
}
