package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.csp.Alternative;
import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * An alternative over two buffered inputs, a and b, racing a writer that puts a value in b, then one in a. The
 * select finds b, both, or none ready; if none, it waits and the first write claims it. It must return a guard
 * whose value is there (a, first in priority, or b), the read that follows gets that value, and the other value
 * stays in its channel. The channels hold one value each, so the writes never wait.
 *
 * <p>Result: the guard chosen, the value read, whether a is still pending at the end, whether b is (1: yes).
 */
@JCStressTest
@Outcome(id = "0, 1, 0, 1", expect = ACCEPTABLE, desc = "both written before the select: a chosen, b's value waits")
@Outcome(id = "1, 2, 1, 0", expect = ACCEPTABLE, desc = "b chosen, found or claimed by its write; a's value waits")
@Outcome(expect = FORBIDDEN, desc = "a guard chosen without its value, a value lost or taken twice")
@State
public class AlternationBufferedTest {
    private final One2OneChannel<Integer> a = Channel.one2one(1);
    private final One2OneChannel<Integer> b = Channel.one2one(1);

    @Actor
    public void selector(IIII_Result r) {
        // A fresh alternative starts its priority at guard 0: a wins whenever both are ready.
        int i = new Alternative(a.in(), b.in()).select();
        r.r1 = i;
        r.r2 = (i == 0 ? a : b).in().read();
    }

    @Actor
    public void writer() {
        b.out().write(2);
        a.out().write(1);
    }

    @Arbiter
    public void leftOver(IIII_Result r) {
        r.r3 = a.in().pending() ? 1 : 0;
        r.r4 = b.in().pending() ? 1 : 0;
    }
}
