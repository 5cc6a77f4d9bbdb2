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
 * A thread pushes 1 then 2 onto an {@link Inbox} while its owner drains it (one get-and-set takes everything pushed
 * so far). Each push is either in that drain or left for the next one, never lost and never in both; and since 1
 * was pushed before 2, a drain that holds 2 holds 1 too, or 1 was drained earlier.
 *
 * <p>Result: the owner's drain, then a later drain (the arbiter's), each oldest first ("none" for nothing).
 */
@JCStressTest
@Outcome(id = "none, 1 2", expect = ACCEPTABLE, desc = "the owner drained before either push")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the owner drained between the pushes")
@Outcome(id = "1 2, none", expect = ACCEPTABLE, desc = "the owner drained after both pushes")
@Outcome(expect = FORBIDDEN, desc = "a push lost, seen by both drains, or out of order")
@State
public class InboxPushRacesDrainTest {
    private final Inbox inbox = new Inbox();

    @Actor
    public void pusher() {
        inbox.push(new Numbered(1));
        inbox.push(new Numbered(2));
    }

    @Actor
    public void owner(LL_Result r) {
        r.r1 = Numbered.drain(inbox);
    }

    @Arbiter
    public void later(LL_Result r) {
        r.r2 = Numbered.drain(inbox);
    }
}
