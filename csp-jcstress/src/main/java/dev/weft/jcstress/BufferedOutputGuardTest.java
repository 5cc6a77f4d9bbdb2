package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.csp.Alternative;
import dev.weft.csp.One2OneChannel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * An alternative over the output of a full channel of capacity one, racing a reader that reads twice. The output
 * guard becomes ready only when the first read frees the room: the select finds it free, or waits until that read
 * claims it. The write that follows fills the room, so the second read gets it, and nothing is left.
 *
 * <p>Result: the guard chosen, the first value read, the second, whether a value is still pending at the end
 * (1: yes).
 */
@JCStressTest
@Outcome(id = "0, 1, 2, 0", expect = ACCEPTABLE, desc = "the freed room was chosen and filled; both values read in order")
@Outcome(expect = FORBIDDEN, desc = "a wrong choice, a value lost, reordered or left behind")
@State
public class BufferedOutputGuardTest {
    private final One2OneChannel<Integer> channel = Filled.one2one(1);

    @Actor
    public void writer(IIII_Result r) {
        r.r1 = new Alternative(channel.out()).select();
        channel.out().write(2);
    }

    @Actor
    public void reader(IIII_Result r) {
        r.r2 = channel.in().read();
        r.r3 = channel.in().read();
    }

    @Arbiter
    public void leftOver(IIII_Result r) {
        r.r4 = channel.in().pending() ? 1 : 0;
    }
}
