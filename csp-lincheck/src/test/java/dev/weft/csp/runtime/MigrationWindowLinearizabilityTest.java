package dev.weft.csp.runtime;

import java.util.ArrayDeque;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The migration window against a bounded FIFO of {@link MigrationWindow#CAPACITY} batches: the owner offers (one
 * thread, Lincheck's non-parallel group) while the owner and thieves poll, each batch by one compare-and-set of
 * the head. Every poll must return a batch offered and not yet taken, oldest first, and an offer must be refused
 * exactly when the ring is full. Two starting points put the scenarios at both edges of the ring: nearly empty
 * (polls that find nothing, a poll racing an offer for the first slot) and nearly full (refused offers, the owner
 * reusing a slot a thief has just freed while another thief still reads it).
 * See {@link Checks} for the scenarios.
 */
public class MigrationWindowLinearizabilityTest {
    @Test
    @Timeout(300)
    void nearlyEmptyStress() {
        Checks.stress(NearlyEmpty.class, NearlyEmptyModel.class);
    }

    @Test
    @Timeout(300)
    void nearlyEmptyModelChecking() {
        Checks.modelChecking(NearlyEmpty.class, NearlyEmptyModel.class);
    }

    @Test
    @Timeout(300)
    void nearlyFullStress() {
        Checks.stress(NearlyFull.class, NearlyFullModel.class);
    }

    @Test
    @Timeout(300)
    void nearlyFullModelChecking() {
        Checks.modelChecking(NearlyFull.class, NearlyFullModel.class);
    }

    /** The window under test, holding {@code prefilled} batches (tagged 100 and up) before the scenario. */
    public abstract static class Window {
        private final MigrationWindow window = new MigrationWindow();

        Window(int prefilled) {
            for (int i = 0; i < prefilled; i++) {
                window.offer(Tag.batch(100 + i));
            }
        }

        @Operation(nonParallelGroup = "owner")
        public boolean offer(int tag) {
            return window.offer(Tag.batch(tag));
        }

        @Operation(nonParallelGroup = "owner")
        public boolean hasRoom() {
            return window.hasRoom();
        }

        @Operation
        public int poll() {
            return Tag.of(window.poll());
        }

        @Operation
        public boolean isEmpty() {
            return window.isEmpty();
        }
    }

    /** The sequential specification: a FIFO of at most {@link MigrationWindow#CAPACITY} tags. */
    public abstract static class Model {
        private final ArrayDeque<Integer> tags = new ArrayDeque<>();

        Model(int prefilled) {
            for (int i = 0; i < prefilled; i++) {
                tags.add(100 + i);
            }
        }

        public boolean offer(int tag) {
            return tags.size() < MigrationWindow.CAPACITY && tags.add(tag);
        }

        public boolean hasRoom() {
            return tags.size() < MigrationWindow.CAPACITY;
        }

        public int poll() {
            Integer t = tags.poll();
            return t == null ? -1 : t;
        }

        public boolean isEmpty() {
            return tags.isEmpty();
        }
    }

    public static final class NearlyEmpty extends Window {
        public NearlyEmpty() {
            super(1);
        }
    }

    public static final class NearlyEmptyModel extends Model {
        public NearlyEmptyModel() {
            super(1);
        }
    }

    public static final class NearlyFull extends Window {
        public NearlyFull() {
            super(MigrationWindow.CAPACITY - 2);
        }
    }

    public static final class NearlyFullModel extends Model {
        public NearlyFullModel() {
            super(MigrationWindow.CAPACITY - 2);
        }
    }
}
