package dev.weft.samples;

/**
 * The Mandelbrot kernel shared by the farm sample and the benchmarks: escape-time iteration counts for one row
 * of a fixed view of the set. Pure computation, no channels.
 */
public final class Mandelbrot {
    /** Left edge of the view on the real axis. */
    public static final double X0 = -2.2;
    /** Width of the view on the real axis. */
    public static final double SPAN_X = 3.0;
    /** Height of the view on the imaginary axis, centred on 0. */
    public static final double SPAN_Y = 2.4;

    private Mandelbrot() {
    }

    /**
     * Fills {@code out} (length {@code width}) with the iteration counts of row {@code y} of a
     * {@code width} x {@code height} image; points that never escape get {@code maxIter}.
     */
    public static void row(int y, int width, int height, int maxIter, int[] out) {
        double ci = (y + 0.5) * SPAN_Y / height - SPAN_Y / 2;
        for (int x = 0; x < width; x++) {
            double cr = X0 + (x + 0.5) * SPAN_X / width;
            double zr = 0;
            double zi = 0;
            int n = 0;
            while (n < maxIter) {
                double zr2 = zr * zr;
                double zi2 = zi * zi;
                if (zr2 + zi2 > 4.0) {
                    break;
                }
                zi = 2 * zr * zi + ci;
                zr = zr2 - zi2 + cr;
                n++;
            }
            out[x] = n;
        }
    }

    /** A new array holding row {@code y}; see {@link #row(int, int, int, int, int[])}. */
    public static int[] row(int y, int width, int height, int maxIter) {
        int[] out = new int[width];
        row(y, width, height, maxIter, out);
        return out;
    }

    /** A checksum of a whole image's iteration counts, for comparing runs. */
    public static long checksum(int[][] rows) {
        long h = 1125899906842597L;
        for (int[] r : rows) {
            for (int v : r) {
                h = 31 * h + v;
            }
        }
        return h;
    }
}
