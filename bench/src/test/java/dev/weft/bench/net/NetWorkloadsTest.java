package dev.weft.bench.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.bench.harness.NetChannelMemory;
import dev.weft.csp.Scheduler;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every net workload does what it claims, in a small size: values arrive, in order, as sent. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NetWorkloadsTest {
    @Test
    void weftEchoesEveryValueFromThreadsAndFibers() {
        try (WeftNetPingPong p = new WeftNetPingPong(null)) {
            assertEquals(200, p.roundTrips(200));
            assertEquals(10, p.roundTrips(10));
        }
        try (Scheduler s = Scheduler.singleThreaded(); WeftNetPingPong p = new WeftNetPingPong(s)) {
            assertEquals(200, p.roundTrips(200));
            assertEquals(10, p.roundTrips(10));
        }
        for (int carriers = 1; carriers <= 2; carriers++) {
            try (Scheduler s = Scheduler.create(carriers); WeftNetPingPong p = new WeftNetPingPong(s, true)) {
                assertEquals(200, p.roundTrips(200));
                assertEquals(10, p.roundTrips(10));
            }
        }
    }

    @Test
    void weftStreamsEveryValueFromThreadsAndFibers() {
        try (WeftNetStream s = new WeftNetStream(64, null)) {
            assertEquals(5_000 * 16, s.send(5_000, new byte[16]));
            assertEquals(500 * 1024, s.send(500, new byte[1024]));
        }
        try (Scheduler f = Scheduler.singleThreaded(); WeftNetStream s = new WeftNetStream(64, f)) {
            assertEquals(5_000 * 16, s.send(5_000, new byte[16]));
        }
        try (Scheduler f = Scheduler.create(2); WeftNetStream s = new WeftNetStream(64, f, true)) {
            assertEquals(5_000 * 16, s.send(5_000, new byte[16]));
            assertEquals(500 * 1024, s.send(500, new byte[1024]));
        }
    }

    @Test
    void rawNettyEchoesEveryFrame() {
        for (boolean echoThread : new boolean[] {false, true}) {
            try (RawNettyPingPong p = new RawNettyPingPong(WeftNet.encodedBytes(WeftNetPingPong.VALUE), echoThread)) {
                assertEquals(200, p.roundTrips(200));
                assertEquals(10, p.roundTrips(10));
            }
        }
    }

    @Test
    void rawNettyCountsEveryStreamedFrame() {
        try (RawNettyStream s = new RawNettyStream()) {
            assertEquals(5_000, s.send(5_000, 16));
            assertEquals(500, s.send(500, 1024));
        }
    }

    @Test
    void jcspEchoesEveryValue() {
        try (JcspNetPingPong p = new JcspNetPingPong()) {
            assertEquals(200, p.roundTrips(200));
        }
    }

    @Test
    void manyNetChannelsWorkOverOneLink() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = System.out;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            NetChannelMemory.main(new String[] {"2000"}); // throws unless all arrived over the one link
        } finally {
            System.setOut(out);
        }
        String[] lines = printed.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> l.startsWith("RESULT netChannel.delivered") || l.startsWith("RESULT netChannel.count"))
                .toArray(String[]::new);
        assertArrayEquals(new String[] {"RESULT netChannel.count 2000", "RESULT netChannel.delivered 2000"}, lines);
    }
}
