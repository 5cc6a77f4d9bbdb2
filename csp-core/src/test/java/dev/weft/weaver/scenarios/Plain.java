package dev.weft.weaver.scenarios;

/** The same inputs as a {@link Source}, read by plain Java to compute what a scenario should return. */
public final class Plain {
    private final int[] values;
    private int i;

    /** Reads {@code values} in order. */
    public Plain(int... values) {
        this.values = values.clone();
    }

    public int next() {
        return values[i++];
    }

    public long nextLong() {
        return Source.wide(next());
    }

    public double nextDouble() {
        return Source.fraction(next());
    }

    public String nextString() {
        return Source.text(next());
    }

    public boolean nextBoolean() {
        return Source.truth(next());
    }
}
