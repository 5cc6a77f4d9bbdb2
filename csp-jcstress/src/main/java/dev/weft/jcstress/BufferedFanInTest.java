package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.csp.Any2OneChannel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Two writers' values through an any-to-one channel of capacity one, read twice by its reader: a first writer
 * has filled the buffer before the test, and a second races the reader. If the second finds the buffer full it
 * waits in the channel, and the read that frees the room moves its value in and wakes it. Each value is received
 * exactly once, first in first out, and the second writer returns.
 *
 * <p>(jcstress gives each actor a CPU of its own and skips tests with more actors than CPUs; on two cores the
 * first writer therefore runs before the test rather than as a third actor.)
 *
 * <p>Result: the first value read, the second, whether a value is still pending at the end (1: yes).
 */
@JCStressTest
@Outcome(id = "1, 2, 0", expect = ACCEPTABLE, desc = "both values received once, in order")
@Outcome(expect = FORBIDDEN, desc = "a value lost, duplicated, reordered or left behind")
@State
public class BufferedFanInTest {
    private final Any2OneChannel<Integer> channel = Filled.any2one(1);

    @Actor
    public void writer() {
        channel.out().write(2);
    }

    @Actor
    public void reader(III_Result r) {
        r.r1 = channel.in().read();
        r.r2 = channel.in().read();
    }

    @Arbiter
    public void leftOver(III_Result r) {
        r.r3 = channel.in().pending() ? 1 : 0;
    }
}
