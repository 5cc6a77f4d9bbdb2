package dev.weft.samples.dist;

/** How {@code n} items are split into {@code parts} contiguous blocks, the first ones one larger. */
public final class Blocks {
    private Blocks() {
    }

    /** The first item of block {@code i}; block i is {@code [start(n, parts, i), start(n, parts, i + 1))}. */
    public static int start(int n, int parts, int i) {
        return i * (n / parts) + Math.min(i, n % parts);
    }
}
