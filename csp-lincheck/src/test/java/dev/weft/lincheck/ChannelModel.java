package dev.weft.lincheck;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The sequential specification: a FIFO channel with close-and-drain and poison, one method per operation of
 * {@link ChannelOperations}, each atomic. Lincheck accepts a run when it finds an order of its operations,
 * consistent with each thread's program order and with real time, in which this model gives every result the run
 * gave.
 *
 * <p>The state is the sequence of values a reader would get next: those in the buffer, then those held by writers
 * waiting for room or for a reader, in the order they were written. A write appends its value (on a
 * synchronous channel it stays the writer's, who waits until it is taken; on a full buffer likewise), so the
 * model needs no bound: the capacity only decides whether the output is ready. A write that waits is placed in
 * the order at the moment its value joined the sequence; a read that waits, at the moment it took its value.
 *
 * <ul>
 *   <li>A read takes the first value; with none left, a closed channel answers {@link Outcome#CLOSED}, an open one
 *       {@link Outcome#WOULD_WAIT} (no run returns that, so no linearization may put the read there). A select
 *       on the input followed by its read is a read.
 *   <li>A write (or a select on the output followed by its write) after a close answers CLOSED, else OK.
 *   <li>{@code pending()} is true when a value waits; {@code selectNow()} on the input is ready then, and also
 *       at the end of a closed channel. Once ready, the input stays ready until someone reads.
 *   <li>{@code selectNow()} on the output of a buffered channel is ready while fewer values than the capacity
 *       wait, or the channel has ended.
 *   <li>Close: final; every value written before it is still read, then reads answer CLOSED. Poison: discards
 *       every value; every later read and write answers POISONED, {@code pending()} is false and both guards are
 *       ready. Poison may follow a close; a close after poison does nothing.
 * </ul>
 *
 * <p>One subclass per capacity: Lincheck makes the model with its no-argument constructor.
 */
public abstract class ChannelModel {
    private final int capacity;
    private final ArrayDeque<Integer> values = new ArrayDeque<>();
    private boolean closed;
    private boolean poisoned;

    ChannelModel(int capacity) {
        this.capacity = capacity;
    }

    /** The model class for a channel of {@code capacity}. */
    static Class<? extends ChannelModel> of(int capacity) {
        switch (capacity) {
            case 0:
                return Synchronous.class;
            case 1:
                return Capacity1.class;
            case 2:
                return Capacity2.class;
            default:
                throw new IllegalArgumentException("no model for capacity " + capacity + "; add a subclass");
        }
    }

    public Object read() {
        if (poisoned) {
            return Outcome.POISONED;
        }
        if (!values.isEmpty()) {
            return values.poll();
        }
        return closed ? Outcome.CLOSED : Outcome.WOULD_WAIT;
    }

    public Object selectRead() {
        return read();
    }

    public Object selectCaseRead() {
        return read();
    }

    public Outcome write(int v) {
        if (poisoned) {
            return Outcome.POISONED;
        }
        if (closed) {
            return Outcome.CLOSED;
        }
        values.add(v);
        return Outcome.OK;
    }

    public Outcome selectWrite(int v) {
        return write(v);
    }

    public Outcome selectCaseWrite(int v) {
        return write(v);
    }

    public boolean pending() {
        return !poisoned && !values.isEmpty();
    }

    public int selectNowIn() {
        return poisoned || closed || !values.isEmpty() ? 0 : -1;
    }

    public Integer selectNowOut() {
        if (capacity == 0) {
            return null; // not compared, see ChannelOperations.selectNowOut
        }
        return poisoned || closed || values.size() < capacity ? 0 : -1;
    }

    public void close() {
        if (!poisoned) {
            closed = true;
        }
    }

    public void poison() {
        poisoned = true;
        values.clear();
    }

    public List<Integer> leftover() {
        List<Integer> left = new ArrayList<>(values);
        values.clear();
        return left;
    }

    // Lincheck merges equal model states.
    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ChannelModel)) {
            return false;
        }
        ChannelModel m = (ChannelModel) o;
        return capacity == m.capacity && closed == m.closed && poisoned == m.poisoned
                && List.copyOf(values).equals(List.copyOf(m.values));
    }

    @Override
    public int hashCode() {
        return Objects.hash(capacity, closed, poisoned, List.copyOf(values));
    }

    /** The model of a synchronous channel. */
    public static final class Synchronous extends ChannelModel {
        public Synchronous() {
            super(0);
        }
    }

    /** The model of a channel with room for one value. */
    public static final class Capacity1 extends ChannelModel {
        public Capacity1() {
            super(1);
        }
    }

    /** The model of a channel with room for two values. */
    public static final class Capacity2 extends ChannelModel {
        public Capacity2() {
            super(2);
        }
    }
}
