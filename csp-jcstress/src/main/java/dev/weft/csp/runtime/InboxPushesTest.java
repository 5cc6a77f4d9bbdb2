package dev.weft.csp.runtime;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.LL_Result;

/**
 * Two threads push onto one {@link Inbox} at once (each push a compare-and-set of the top): one pushes 1 then 2,
 * the other 10. A drain afterwards returns all three, each once, 1 before 2 (one pusher's order) and 10 anywhere;
 * a second drain finds nothing.
 *
 * <p>Result: the first drain, the second, each oldest first ("none" for nothing).
 */
@JCStressTest
@Outcome(id = "10 1 2, none", expect = ACCEPTABLE, desc = "10 pushed first")
@Outcome(id = "1 10 2, none", expect = ACCEPTABLE, desc = "10 pushed between 1 and 2")
@Outcome(id = "1 2 10, none", expect = ACCEPTABLE, desc = "10 pushed last")
@Outcome(expect = FORBIDDEN, desc = "a push lost or seen twice, one pusher's order broken, or a push left for the second drain")
@State
public class InboxPushesTest {
    private final Inbox inbox = new Inbox();

    @Actor
    public void pushesTwo() {
        inbox.push(new Numbered(1));
        inbox.push(new Numbered(2));
    }

    @Actor
    public void pushesOne() {
        inbox.push(new Numbered(10));
    }

    @Arbiter
    public void drains(LL_Result r) {
        r.r1 = Numbered.drain(inbox);
        r.r2 = Numbered.drain(inbox);
    }
}
