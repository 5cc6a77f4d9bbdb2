package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bench.kilim.KilimWorkloads;
import dev.weft.bench.peers.Jcsp;
import dev.weft.bench.peers.ThreadStarter;
import dev.weft.bench.peers.Threads;
import dev.weft.bench.report.Report;
import dev.weft.csp.Scheduler;
import dev.weft.samples.CommsTime;
import dev.weft.samples.Mandelbrot;
import dev.weft.samples.MandelbrotFarm;
import dev.weft.samples.TokenRing;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Every peer's version of every workload computes the same thing, in a small size. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkloadsTest {
    private static Scheduler weft;
    private static kilim.Scheduler kilim;
    private static final List<Threads> THREADS = new ArrayList<>();

    @BeforeAll
    static void start() {
        weft = Scheduler.create(2);
        kilim = KilimWorkloads.scheduler(2);
        THREADS.add(new Threads(ThreadStarter.PLATFORM));
        if (ThreadStarter.VirtualThreads.available()) {
            THREADS.add(new Threads(ThreadStarter.VIRTUAL));
        }
    }

    @AfterAll
    static void stop() {
        weft.close();
        kilim.shutdown();
    }

    @Test
    void commsTimeEndsOnEveryPeer() {
        assertTrue(CommsTime.run(weft, 500) > 0);
        Jcsp.commsTime(500);
        KilimWorkloads.commsTime(kilim, 500);
        for (Threads t : THREADS) {
            t.commsTime(500);
        }
    }

    @Test
    void tokenRingCountsEveryRoundTripOnEveryPeer() {
        for (int tokens : new int[] {1, 7}) {
            assertEquals(50, TokenRing.run(weft, 16, tokens, 50).roundTrips);
            assertEquals(50, Jcsp.tokenRing(16, tokens, 50));
            assertEquals(50, KilimWorkloads.tokenRing(kilim, 16, tokens, 50));
            for (Threads t : THREADS) {
                assertEquals(50, t.tokenRing(16, tokens, 50));
            }
        }
    }

    @Test
    void mandelbrotFarmsAgreeWithTheKernel() {
        int w = 64;
        int h = 40;
        int[][] expected = new int[h][];
        for (int y = 0; y < h; y++) {
            expected[y] = Mandelbrot.row(y, w, h, 100);
        }
        for (int workers : new int[] {1, 3}) {
            assertArrayEquals(expected, MandelbrotFarm.render(weft, workers, w, h, 100));
            assertArrayEquals(expected, Jcsp.mandelbrot(workers, w, h, 100));
            assertArrayEquals(expected, KilimWorkloads.mandelbrot(kilim, workers, w, h, 100));
            for (Threads t : THREADS) {
                assertArrayEquals(expected, t.mandelbrot(workers, w, h, 100));
            }
        }
    }

    @Test
    void fanInAndSelectDeliverEveryValue() {
        long sum = 8L * (300 * 301 / 2);
        assertEquals(sum, WeftWorkloads.fanIn(weft, 8, 300));
        assertEquals(sum, Jcsp.fanIn(8, 300));
        assertEquals(sum, KilimWorkloads.fanIn(kilim, 8, 300));
        for (Threads t : THREADS) {
            assertEquals(sum, t.fanIn(8, 300));
        }
        long four = 4L * (300 * 301 / 2);
        assertEquals(four, WeftWorkloads.select(weft, 4, 300));
        assertEquals(four, Jcsp.select(4, 300));
        assertEquals(four, KilimWorkloads.select(kilim, 4, 300));
    }

    @Test
    void spawnJoinRunsEveryProcess() {
        assertEquals(2000, WeftWorkloads.spawnJoin(weft, 2000));
        assertEquals(2000, KilimWorkloads.spawnJoin(kilim, 2000));
        assertEquals(200, Jcsp.spawnJoin(200));
        for (Threads t : THREADS) {
            assertEquals(200, t.spawnJoin(200));
        }
    }

    @Test
    void reportTurnsResultsIntoATableAndAChart(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("jmh.csv"), String.join("\n",
                "\"Benchmark\",\"Mode\",\"Threads\",\"Samples\",\"Score\",\"Score Error (99.9%)\",\"Unit\",\"Param: tokens\"",
                "\"dev.weft.bench.CommsTimeBench.weft\",\"avgt\",1,3,100.0,1.0,\"ns/op\",",
                "\"dev.weft.bench.CommsTimeBench.jcsp\",\"avgt\",1,3,5000.0,10.0,\"ns/op\",",
                "\"dev.weft.bench.TokenRingBench.kilim\",\"avgt\",1,3,600.0,10.0,\"ns/op\",64") + "\n");
        Files.writeString(dir.resolve("harness.txt"), "RESULT blocked.weft 200\nRESULT blocked.kilim 400\n"
                + "SKIPPED spawnJoin.jcsp failed in this run\nRESULT CommsTimeBench.go 150.0\n");
        Report.main(new String[] {dir.toString()});
        String md = Files.readString(dir.resolve("latest.md"));
        assertTrue(md.contains("| CommsTime | ns per communication | 100 | 150 (1.50x) | 5,000 (50x) |"), md);
        assertTrue(md.contains("go was not on the PATH"), md); // no bench.go property: the run had no go
        assertTrue(md.contains("400 (2.00x)"), md);
        assertTrue(md.contains("java.util.concurrent has no select"), md);
        assertTrue(md.contains("failed in this run"), md);
        String svg = Files.readString(dir.resolve("ratios.svg"));
        assertTrue(svg.startsWith("<svg") && svg.trim().endsWith("</svg>"), svg);
    }
}
