package dev.weft.csp.runtime;

/** A schedulable that only carries a number: what the runtime's queues hold, told apart in results. */
final class Tag extends Schedulable {
    final int value;

    Tag(int value) {
        this.value = value;
    }

    @Override
    protected void runSlice() {
        throw new AssertionError("a tag is never run");
    }

    /** A batch of one tagged fiber. */
    static Batch batch(int value) {
        Batch b = new Batch();
        b.add(new Tag(value));
        return b;
    }

    /** The tag of the one fiber of {@code b} (-1 for no batch). */
    static int of(Batch b) {
        return b == null ? -1 : ((Tag) b.first()).value;
    }

    @Override
    public String toString() {
        return "#" + value;
    }
}
