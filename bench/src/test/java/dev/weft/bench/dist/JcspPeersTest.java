package dev.weft.bench.dist;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.net.launch.Launcher;
import dev.weft.samples.dist.NBody;
import dev.weft.samples.dist.Sor;
import dev.weft.samples.dist.Tsp;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Each JCSP.net2 peer computes what Weft's sample computes on 1 node, in a small size, on 1 node and with
 * worker JVMs (3 nodes: SOR's middle node has neighbours both sides).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class JcspPeersTest {
    @Test
    void sorGivesWeftsPlateBitForBit() throws Exception {
        double[] weft = Launcher.builder().build().run(Sor.class, "30");
        assertEquals(30 * 30 + 1, weft.length); // the plate, then the sweeps
        for (int nodes : new int[] {1, 2, 3}) {
            assertArrayEquals(weft, JcspSor.run(nodes, 30), nodes + " nodes");
        }
    }

    @Test
    void tspFindsWeftsShortestTour() throws Exception {
        int weft = Launcher.builder().build().run(Tsp.class, "9");
        for (int nodes : new int[] {1, 2, 2, 2}) { // when a bound arrives varies from run to run
            assertEquals(weft, JcspTsp.run(nodes, 9), nodes + " nodes");
        }
    }

    @Test
    void nBodyGivesWeftsBodiesBitForBit() throws Exception {
        double[] weft = Launcher.builder().build().run(NBody.class, "60", "3");
        for (int nodes : new int[] {1, 2}) {
            assertArrayEquals(weft, JcspNBody.run(nodes, 60, 3), nodes + " nodes");
        }
    }
}
