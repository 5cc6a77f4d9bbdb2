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
 * An alternative over two synchronous inputs, a and b, racing a writer that writes to b, then to a. The select
 * either finds the writer already waiting on b or registers and is claimed by the writer's arrival. Only b can be
 * ready (the write to a starts after b's value is taken), so the select must return b, and the read that follows
 * gets b's value; the selector then reads a, so that the writer always returns.
 *
 * <p>Result: the guard chosen, the value read from it, the value read from the other channel.
 */
@JCStressTest
@Outcome(id = "1, 2, 1", expect = ACCEPTABLE, desc = "b chosen, its value read, then a's")
@Outcome(expect = FORBIDDEN, desc = "a guard chosen with no writer committed, or a wrong value")
@State
public class AlternationRendezvousTest {
    private final One2OneChannel<Integer> a = Channel.one2one();
    private final One2OneChannel<Integer> b = Channel.one2one();

    @Actor
    public void selector(III_Result r) {
        int i = new Alternative(a.in(), b.in()).select();
        r.r1 = i;
        r.r2 = (i == 0 ? a : b).in().read();
        r.r3 = (i == 0 ? b : a).in().read();
    }

    @Actor
    public void writer() {
        b.out().write(2);
        a.out().write(1);
    }
}
