package dev.weft.csp.runtime;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's inbox against a FIFO: any thread pushes (a compare-and-set on the top of a stack linked through the
 * fibers), any thread drains (one get-and-set takes everything; the drainer reverses it). A drain must return
 * every fiber pushed before it and not yet drained, each once, in the order pushed.
 */
public class InboxLinearizabilityTest {
    private final Inbox inbox = new Inbox();

    @Operation
    public void push(int tag) {
        inbox.push(new Tag(tag));
    }

    /** Drains into a fresh queue, as a worker drains into its active batch; the tags in queue order. */
    @Operation
    public List<Integer> drain() {
        FiberQueue q = new FiberQueue();
        inbox.drainTo(q);
        List<Integer> tags = new ArrayList<>();
        for (Schedulable c; (c = q.poll()) != null; ) {
            tags.add(((Tag) c).value);
        }
        return tags;
    }

    @Operation
    public boolean isEmpty() {
        return inbox.isEmpty();
    }

    @Test
    @Timeout(300)
    void stress() {
        Checks.stress(InboxLinearizabilityTest.class, Model.class);
    }

    @Test
    @Timeout(300)
    void modelChecking() {
        Checks.modelChecking(InboxLinearizabilityTest.class, Model.class);
    }

    /** The sequential specification: a FIFO that a drain empties. */
    public static final class Model {
        private final ArrayDeque<Integer> tags = new ArrayDeque<>();

        public void push(int tag) {
            tags.add(tag);
        }

        public List<Integer> drain() {
            List<Integer> all = new ArrayList<>(tags);
            tags.clear();
            return all;
        }

        public boolean isEmpty() {
            return tags.isEmpty();
        }
    }
}
