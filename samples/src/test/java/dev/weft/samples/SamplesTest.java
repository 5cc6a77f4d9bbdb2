package dev.weft.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Scheduler;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every sample in a small size, on one and on two workers, checked for its result. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SamplesTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void commsTimeMeasuresSomething(int workers) {
        try (Scheduler s = Scheduler.create(workers)) {
            double ns = CommsTime.run(s, 2_000);
            assertTrue(ns > 0 && ns < 1e6, "ns per communication: " + ns);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void tokenRingCountsEveryRoundTrip(int workers) {
        try (Scheduler s = Scheduler.create(workers)) {
            for (int tokens : new int[] {1, 7, 31}) {
                TokenRing.Result r = TokenRing.run(s, 32, tokens, 100);
                assertEquals(100, r.roundTrips, tokens + " tokens");
                assertEquals(3200, r.hops, tokens + " tokens");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void sieveFindsThePrimes(int workers) {
        try (Scheduler s = Scheduler.create(workers)) {
            assertArrayEquals(firstPrimes(500), Sieve.primes(s, 500));
            assertArrayEquals(new int[] {2}, Sieve.primes(s, 1));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void producerConsumerDeliversEveryItemOnce(int workers) {
        try (Scheduler s = Scheduler.create(workers)) {
            for (int capacity : new int[] {0, 1, 16}) {
                ProducerConsumer.Result r = ProducerConsumer.run(s, 3, 4, 2_000, capacity);
                assertEquals(6_000, r.items, "capacity " + capacity);
                assertEquals(ProducerConsumer.Result.expectedSum(3, 2_000), r.sum, "capacity " + capacity);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3})
    void mandelbrotFarmComputesEveryRowLikeTheKernel(int workers) {
        int width = 120;
        int height = 90;
        int[][] farmed = MandelbrotFarm.render(workers, width, height, 200);
        for (int y = 0; y < height; y++) {
            assertArrayEquals(Mandelbrot.row(y, width, height, 200), farmed[y], "row " + y);
        }
    }

    @Test
    void mandelbrotFarmWritesThePicture(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("mandelbrot.png");
        MandelbrotFarm.main(new String[] {"160", "120", "100", "2", png.toString()});
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(160, img.getWidth());
        assertEquals(120, img.getHeight());
        assertEquals(0, img.getRGB(80, 60) & 0xFFFFFF, "the centre-left of the view is inside the set: black");
        assertTrue(Files.size(png) > 0);
    }

    @Test
    void occoidsGivesTheSameChecksumOnOneAndOnManyWorkers() {
        long[] sums = new long[3];
        int[] workers = {1, 2, 4};
        for (int k = 0; k < workers.length; k++) {
            try (Scheduler s = Scheduler.create(workers[k])) {
                sums[k] = Occoids.checksum(Occoids.run(s, 300, 25, 8, 6, 7));
            }
        }
        assertEquals(sums[0], sums[1], "1 and 2 workers");
        assertEquals(sums[0], sums[2], "1 and 4 workers");
        assertNotEquals(Occoids.checksum(Occoids.initial(300, 8, 6, 7)), sums[0], "the agents moved");
    }

    @Test
    void occoidsAgentsStayOnTheTorus() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            for (Occoids.Boid b : Occoids.run(s, 100, 30, 5, 4, 1)) {
                assertTrue(b.x() >= 0 && b.x() < 5 && b.y() >= 0 && b.y() < 4, b.toString());
            }
        }
    }

    @Test
    void millionsCountsItsProcessesAndWeighsThem() {
        try (Scheduler s = Scheduler.singleThreaded()) {
            Millions.Result r = Millions.run(s, 2_000);
            assertEquals(14_001, r.processes);
            assertEquals(4_000, r.exchanges);
            assertTrue(r.bytesPerProcess > 0, "bytes per process: " + r.bytesPerProcess);
        }
    }

    private static int[] firstPrimes(int n) {
        int[] primes = new int[n];
        int found = 0;
        for (int c = 2; found < n; c++) {
            boolean prime = true;
            for (int i = 0; i < found && primes[i] * primes[i] <= c; i++) {
                if (c % primes[i] == 0) {
                    prime = false;
                    break;
                }
            }
            if (prime) {
                primes[found++] = c;
            }
        }
        return primes;
    }
}
