package dev.weft.bench.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every net workload does what it claims, in a small size: values arrive, in order, as sent. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NetWorkloadsTest {
    @Test
    void rawNettyEchoesEveryFrame() {
        for (boolean echoThread : new boolean[] {false, true}) {
            try (RawNettyPingPong p = new RawNettyPingPong(3, echoThread)) {
                assertEquals(200, p.roundTrips(200));
                assertEquals(10, p.roundTrips(10));
            }
        }
    }

    @Test
    void rawNettyCountsEveryStreamedFrame() {
        try (RawNettyStream s = new RawNettyStream()) {
            assertEquals(5_000, s.send(5_000, 16));
            assertEquals(5_500, s.send(500, 1024));
        }
    }

    @Test
    void jcspEchoesEveryValue() {
        try (JcspNetPingPong p = new JcspNetPingPong()) {
            assertEquals(200, p.roundTrips(200));
        }
    }
}
