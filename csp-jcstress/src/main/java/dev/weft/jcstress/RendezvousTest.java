package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A rendezvous on a synchronous one-to-one channel, whichever side arrives first: the reader gets the value,
 * the writer returns, nothing is left in the channel, and the exchange orders memory both ways. What each side
 * wrote to a plain field before the exchange, the other sees after it: the writer's field because the value
 * travels from it to the reader, the reader's field because a synchronous write returns only once the reader
 * has taken the value.
 *
 * <p>Result: what the writer saw of the reader's field, the value read, what the reader saw of the writer's
 * field, whether a value is still pending once both have finished (1: yes).
 */
@JCStressTest
@Outcome(id = "1, 42, 1, 0", expect = ACCEPTABLE, desc = "the value went across; each side sees the other's earlier write")
@Outcome(expect = FORBIDDEN, desc = "a lost or wrong value, a value left behind, or an exchange that does not order memory")
@State
public class RendezvousTest {
    private final One2OneChannel<Integer> channel = Channel.one2one();
    private int writerNote; // plain fields: only the channel orders them
    private int readerNote;

    @Actor
    public void writer(IIII_Result r) {
        writerNote = 1;
        channel.out().write(42);
        r.r1 = readerNote;
    }

    @Actor
    public void reader(IIII_Result r) {
        readerNote = 1;
        r.r2 = channel.in().read();
        r.r3 = writerNote;
    }

    @Arbiter
    public void leftOver(IIII_Result r) {
        r.r4 = channel.in().pending() ? 1 : 0;
    }
}
