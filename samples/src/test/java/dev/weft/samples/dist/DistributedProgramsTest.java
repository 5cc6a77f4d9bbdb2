package dev.weft.samples.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Each distributed sample, small, on 1 node and on 3 (two worker JVMs): the same result. */
@Timeout(120)
class DistributedProgramsTest {
    @Test
    void nBodyOnThreeNodesIsBitForBitTheOneNodeResultAndTheSequentialOne() {
        double[] one = DistMain.run(NBody.class, 1, "200", "5");
        double[] three = DistMain.run(NBody.class, 3, "200", "5");
        assertArrayEquals(one, three);
        double[] pos = NBody.initialPositions(200);
        double[] vel = new double[600];
        for (int s = 0; s < 5; s++) {
            NBody.step(pos, vel, 200, 0, 200);
        }
        for (int i = 0; i < 200; i++) {
            assertEquals(pos[4 * i], one[6 * i]);
            assertEquals(vel[3 * i + 2], one[6 * i + 5]);
        }
    }

    @Test
    void sorOnThreeNodesIsBitForBitTheOneNodeResultAndConverged() {
        double[] one = DistMain.run(Sor.class, 1, "30");
        double[] three = DistMain.run(Sor.class, 3, "30");
        assertArrayEquals(one, three);
        double sweeps = one[30 * 30];
        assertTrue(sweeps > 10 && sweeps < 20_000, "sweeps: " + sweeps);
        double[] plate = Arrays.copyOf(one, 30 * 30);
        // converged: one more sweep changes nothing by as much as the tolerance
        double change = Math.max(Sor.halfSweep(plate, 30, 1, 29, 0), Sor.halfSweep(plate, 30, 1, 29, 1));
        assertTrue(change < 1e-6, "change " + change);
    }

    @Test
    void tspOnThreeNodesFindsTheOneNodeOptimumWhichBruteForceConfirms() {
        int one = DistMain.run(Tsp.class, 1, "9");
        int three = DistMain.run(Tsp.class, 3, "9");
        assertEquals(one, three);
        assertEquals(bruteForce(Tsp.distances(9)), one);
        AtomicInteger best = new AtomicInteger(Integer.MAX_VALUE);
        new Tsp.Search(Tsp.distances(9), best).complete(new int[] {0});
        assertEquals(one, best.get());
    }

    @Test
    void theReadmeLauncherExampleAddsTheWorkersSquares() {
        assertEquals(1L + 4, DistMain.run(SumOfSquares.class, 3));
    }

    /** Every tour from city 0, no pruning. */
    private static int bruteForce(int[][] d) {
        int[] perm = new int[d.length - 1];
        for (int i = 0; i < perm.length; i++) {
            perm[i] = i + 1;
        }
        int best = Integer.MAX_VALUE;
        do {
            int len = d[0][perm[0]] + d[perm[perm.length - 1]][0];
            for (int i = 1; i < perm.length; i++) {
                len += d[perm[i - 1]][perm[i]];
            }
            best = Math.min(best, len);
        } while (nextPermutation(perm));
        return best;
    }

    private static boolean nextPermutation(int[] a) {
        int i = a.length - 2;
        while (i >= 0 && a[i] >= a[i + 1]) {
            i--;
        }
        if (i < 0) {
            return false;
        }
        int j = a.length - 1;
        while (a[j] <= a[i]) {
            j--;
        }
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
        for (int l = i + 1, r = a.length - 1; l < r; l++, r--) {
            t = a[l];
            a[l] = a[r];
            a[r] = t;
        }
        return true;
    }
}
