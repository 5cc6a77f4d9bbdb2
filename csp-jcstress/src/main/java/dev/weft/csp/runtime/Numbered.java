package dev.weft.csp.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * A schedulable that only carries a number, for the jcstress tests of the runtime's lock-free queues: what they
 * hold, told apart in results. Also the helpers that read a queue back as the numbers it held, oldest first.
 */
final class Numbered extends Schedulable {
    /** More than any test queues: a walk that goes further has met a cycle of links. */
    private static final int LONGEST = 64;

    final int value;

    Numbered(int value) {
        this.value = value;
    }

    @Override
    protected void runSlice() {
        throw new AssertionError("a numbered schedulable is never run");
    }

    /** A batch of one numbered schedulable. */
    static Batch batch(int value) {
        Batch b = new Batch();
        b.add(new Numbered(value));
        return b;
    }

    /** The number of the one schedulable of {@code b}; -1 for no batch, -2 for an empty batch. */
    static int of(Batch b) {
        if (b == null) {
            return -1;
        }
        Schedulable first = b.first();
        return first == null ? -2 : ((Numbered) first).value;
    }

    /** What {@code inbox} holds, drained oldest first. */
    static String drain(Inbox inbox) {
        FiberQueue q = new FiberQueue();
        inbox.drainTo(q);
        List<Integer> numbers = new ArrayList<>();
        for (Schedulable c = q.poll(); c != null; c = q.poll()) {
            numbers.add(((Numbered) c).value);
            if (numbers.size() > LONGEST) {
                return "a cycle";
            }
        }
        return runs(numbers);
    }

    /** What {@code window} holds, polled oldest first. */
    static String drain(MigrationWindow window) {
        List<Integer> numbers = new ArrayList<>();
        for (Batch b = window.poll(); b != null; b = window.poll()) {
            numbers.add(of(b));
            if (numbers.size() > LONGEST) {
                return "a cycle";
            }
        }
        return runs(numbers);
    }

    /** The numbers in order, a run of three or more consecutive ones written first-last to keep outcomes short. */
    private static String runs(List<Integer> numbers) {
        if (numbers.isEmpty()) {
            return "none";
        }
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < numbers.size(); i++) {
            int first = numbers.get(i);
            int j = i;
            while (j + 1 < numbers.size() && numbers.get(j + 1) == numbers.get(j) + 1) {
                j++;
            }
            s.append(i == 0 ? "" : " ").append(first);
            if (j > i + 1) {
                s.append('-').append(numbers.get(j));
            } else if (j == i + 1) {
                s.append(' ').append(numbers.get(j));
            }
            i = j;
        }
        return s.toString();
    }
}
