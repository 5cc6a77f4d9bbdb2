package dev.weft.samples.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.net.Node;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The distributed samples, small, each as several real JVMs on this machine. */
@Timeout(120)
class DistributedSamplesTest {
    @Test
    void commsTimeRunsAcrossThreeJvms() throws Exception {
        double ns = DistributedCommsTime.run(2_000);
        assertTrue(ns > 0 && ns < 1e9, "ns per communication: " + ns);
    }

    @Test
    void theFarmCountsThePrimesWithWorkersInOtherJvms() throws Exception {
        assertEquals(17_984, DistributedFarm.countPrimes(200_000, 2)); // pi(200,000)
        assertEquals(DistributedFarm.primesIn(0, 200_000), 17_984);
    }

    @Test
    void theQueueIsHandedOverWithEveryJobOnceInOrder() {
        int[] taken = HandOver.run(2_000);
        assertEquals(2_000, taken[0]);
        assertEquals(2_000, taken[1]);
    }

    @Test
    void theReadmeExampleGreetsByName() throws Exception {
        try (Node names = Node.builder().serveNames().start()) {
            CompletableFuture<List<String>> received =
                    CompletableFuture.supplyAsync(() -> Receiver.receive(names.address()));
            Sender.send(names.address(), List.of("hello", "world"));
            assertEquals(List.of("hello", "world", "bye"), received.get(30, TimeUnit.SECONDS));
        }
    }
}
