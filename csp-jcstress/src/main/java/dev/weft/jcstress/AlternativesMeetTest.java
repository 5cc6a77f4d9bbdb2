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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Two alternatives on the two ends of one synchronous channel, each with that end as its only guard: neither
 * side has a committed partner until the other's alternative claims it, so both may register and wait. They
 * must find each other (a miss hangs the test), and the write and read that follow must exchange the value.
 *
 * <p>Result: the writer's choice, the reader's choice, the value read.
 */
@JCStressTest
@Outcome(id = "0, 0, 42", expect = ACCEPTABLE, desc = "the alternatives met and the value went across")
@Outcome(expect = FORBIDDEN, desc = "a wrong choice or value")
@State
public class AlternativesMeetTest {
    private final One2OneChannel<Integer> channel = Channel.one2one();

    @Actor
    public void writer(III_Result r) {
        r.r1 = new Alternative(channel.out()).select();
        channel.out().write(42);
    }

    @Actor
    public void reader(III_Result r) {
        r.r2 = new Alternative(channel.in()).select();
        r.r3 = channel.in().read();
    }
}
