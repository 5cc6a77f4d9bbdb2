package dev.weft.samples;

/**
 * A short tour of the samples: runs a small version of each and lets it print its headline figure. Takes well
 * under a minute.
 *
 * <p>Run: {@code java -cp samples/target/classes:csp-core/target/classes dev.weft.samples.Tour}
 */
public final class Tour {
    private Tour() {
    }

    /** Runs every sample in a small size, one after the other. */
    public static void main(String[] args) throws Exception {
        String workers = Integer.toString(Math.max(2, Runtime.getRuntime().availableProcessors()));
        long start = System.nanoTime();
        CommsTime.main(new String[] {"300000", "2"});
        TokenRing.main(new String[] {"256", "1", "1024", "1"});
        TokenRing.main(new String[] {"256", "64", "1024", "1"});
        Sieve.main(new String[] {"3000"});
        ProducerConsumer.main(new String[] {"4", "4", "100000", "64", workers});
        MandelbrotFarm.main(new String[] {"800", "600", "1000", workers, "mandelbrot.png"});
        Occoids.main(new String[] {"800", "60", "20", workers});
        Millions.main(new String[] {"200000", "1"});
        System.out.printf("Tour done in %.1f s%n", (System.nanoTime() - start) / 1e9);
    }
}
