package dev.weft.csp.runtime;

import java.util.ArrayList;
import java.util.List;

/** A schedulable that only carries a number, for tests of the queues and lists that hold continuations. */
final class Labelled extends Schedulable {
    final int label;

    Labelled(int label) {
        this.label = label;
    }

    @Override
    protected void runSlice() {
        throw new AssertionError("a label is never run");
    }

    /** The labels of {@code q}'s elements, oldest first; {@code q} is left as it was. */
    static List<Integer> labels(FiberQueue q) {
        List<Integer> out = new ArrayList<>();
        for (Schedulable c = q.first(); c != null; c = (Schedulable) c.next) {
            out.add(((Labelled) c).label);
        }
        return out;
    }

    /** Labels {@code from} (inclusive) to {@code to} (exclusive). */
    static List<Integer> range(int from, int to) {
        List<Integer> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(i);
        }
        return out;
    }

    @Override
    public String toString() {
        return "#" + label;
    }
}
