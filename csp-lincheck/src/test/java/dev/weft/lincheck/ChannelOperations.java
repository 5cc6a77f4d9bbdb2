package dev.weft.lincheck;

import dev.weft.csp.AltingChannelInput;
import dev.weft.csp.AltingChannelOutput;
import dev.weft.csp.Alternative;
import dev.weft.csp.ChannelClosedException;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Select;
import java.util.ArrayList;
import java.util.List;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * The operations Lincheck runs on one new channel per run, from plain threads (thread mode: a waiting operation
 * blocks its thread). Each is the channel's own operation with its exceptions turned into {@link Outcome}s, so
 * that {@link ChannelModel}, which has a method of the same name for each, can be compared with it. The channel's
 * kind and capacity come from the subclass's {@link Shape}; {@link BalancedScenarios} chooses which thread runs
 * which operation.
 */
public abstract class ChannelOperations {
    private final AltingChannelInput<Integer> in;
    private final AltingChannelOutput<Integer> out;
    private final boolean synchronous;
    /** Set as a poison begins: see {@link #write(int, boolean)}. */
    private volatile boolean poisonBegun;

    protected ChannelOperations() {
        Shape shape = getClass().getAnnotation(Shape.class);
        Shape.Ends ends = shape.kind().make(shape.capacity());
        in = ends.in();
        out = ends.out();
        synchronous = shape.capacity() == 0;
    }

    /** {@code read()}: the value, or the end. */
    @Operation
    public Object read() {
        try {
            return in.read();
        } catch (ChannelClosedException end) {
            return Outcome.CLOSED;
        } catch (PoisonException poison) {
            return Outcome.POISONED;
        }
    }

    /** A select that waits on the input alone, then the read that follows its choice. */
    @Operation
    public Object selectRead() {
        new Alternative(in).priSelect();
        return read();
    }

    /**
     * A {@link Select} with one read case: its read is part of its choice, and if another reader took what the
     * choice saw, it chooses (and so waits) again.
     */
    @Operation
    public Object selectCaseRead() {
        Object[] got = new Object[1];
        try {
            new Select().read(in, v -> got[0] = v).run();
            return got[0];
        } catch (ChannelClosedException end) {
            return Outcome.CLOSED;
        } catch (PoisonException poison) {
            return Outcome.POISONED;
        }
    }

    /** {@code write(v)}. */
    @Operation
    public Outcome write(int v) {
        return write(v, poisonBegun);
    }

    /** A select that waits on the output alone, then the write that follows its choice. */
    @Operation
    public Outcome selectWrite(int v) {
        boolean afterPoison = poisonBegun;
        new Alternative(out).priSelect();
        return write(v, afterPoison);
    }

    /**
     * A {@link Select} with one write case: its write is part of its choice, and if another writer took the
     * reader or the room the choice saw, it chooses (and so waits) again. Poison as in {@link #write(int, boolean)}.
     */
    @Operation
    public Outcome selectCaseWrite(int v) {
        boolean afterPoison = poisonBegun;
        try {
            new Select().write(out, v).run();
            return Outcome.OK;
        } catch (ChannelClosedException closed) {
            return Outcome.CLOSED;
        } catch (PoisonException poison) {
            return afterPoison ? Outcome.POISONED : Outcome.OK;
        }
    }

    /**
     * Writes {@code v}. {@code afterPoison}: a poison had begun when the operation began. A write begun after a
     * poison began is refused: POISONED. One begun before overlaps the poison: it may have been waiting, its value
     * already counted as waiting (by {@code pending()}, say), when the poison discarded that value and woke it,
     * or the poison may have refused it on entry. Either way, in a sequential history that write went through
     * just before the poison, whose discarding left no trace of it: it answers OK, as the model does there. A
     * close could also have refused it (with PoisonException, if the poison came first): so a scenario never
     * both closes and poisons ({@link BalancedScenarios}). Nothing escapes the check by that: the poison
     * discards every value, and a read after it must throw.
     */
    private Outcome write(int v, boolean afterPoison) {
        try {
            out.write(v);
            return Outcome.OK;
        } catch (ChannelClosedException closed) {
            return Outcome.CLOSED;
        } catch (PoisonException poison) {
            return afterPoison ? Outcome.POISONED : Outcome.OK;
        }
    }

    /** {@code pending()} on the input: a value (or a committed writer) is waiting. */
    @Operation
    public boolean pending() {
        return in.pending();
    }

    /** {@code selectNow()} of an alternative over the input: 0 if ready (a value, or the end), else -1. */
    @Operation
    public int selectNowIn() {
        return new Alternative(in).selectNow();
    }

    /**
     * {@code selectNow()} of an alternative over the output: 0 if ready, else -1. On a synchronous channel the
     * answer is not compared (null): the output is ready there when a reader waits, and a waiting read is no
     * state of a sequential history. The call still runs, and still claims a selecting reader it finds.
     */
    @Operation
    public Integer selectNowOut() {
        int chosen = new Alternative(out).selectNow();
        return synchronous ? null : chosen;
    }

    /** {@code close()} on the output. */
    @Operation
    public void close() {
        out.close();
    }

    /** {@code poison()}. */
    @Operation
    public void poison() {
        poisonBegun = true;
        in.poison();
    }

    /**
     * What is left once every thread is done, read without waiting (while {@code pending()}): nothing lost,
     * nothing extra. Only ever the last operation of a scenario, when no other thread runs.
     */
    @Operation
    public List<Integer> leftover() {
        List<Integer> left = new ArrayList<>();
        while (in.pending()) {
            left.add(in.read());
        }
        return left;
    }
}
