package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a running program tells about itself: the JFR events (the stuck-carrier warning: CarrierWatchdogTest). */
class ObservabilityTest {
    @Test
    @Timeout(60)
    void jfrRecordsSpawnsParksEndsStealsDeadlocksAndStuckCarriers() throws Exception {
        Path file = Files.createTempFile("weft", ".jfr");
        try (Recording rec = new Recording()) {
            for (String e : List.of("FiberSpawn", "FiberEnd", "Steal", "Deadlock", "StuckCarrier")) {
                rec.enable("dev.weft." + e);
            }
            rec.enable("dev.weft.FiberPark").withThreshold(java.time.Duration.ofMillis(20));
            rec.start();
            try (Scheduler one = Scheduler.singleThreaded()) {
                try (LogCapture log = new LogCapture()) {
                    java.util.concurrent.atomic.AtomicBoolean seen = new java.util.concurrent.atomic.AtomicBoolean();
                    Thread watcher = CarrierWatchdogTest.watchFor(log, "[recorded]", seen::set);
                    Weft.run(one, () -> Weft.spawn("recorded", () -> CarrierWatchdogTest.sleepUntil(seen)).join());
                    watcher.join(); // the warning is logged right after its event is committed
                }
                try {
                    Weft.run(one, () -> Channel.<Integer>one2one().in().read());
                } catch (DeadlockException expected) {
                    // recorded too
                }
            }
            try (Scheduler one = Scheduler.singleThreaded()) { // a wait of 50 ms on a channel: a park event
                Weft.run(one, () -> {
                    One2OneChannel<Integer> late = Channel.one2one();
                    Weft.spawn(() -> {
                        Timer.sleep(java.time.Duration.ofMillis(50));
                        late.out().write(1);
                    });
                    late.in().read();
                });
            }
            try (Scheduler two = Scheduler.create(2)) {
                Weft.run(two, () -> Parallel.forRange(0, 2000, i -> {
                    for (int k = 0; k < 50; k++) {
                        Fiber.yield();
                    }
                }));
            }
            rec.stop();
            rec.dump(file);
        }
        List<String> names = new ArrayList<>();
        String spawned = null;
        boolean parkedOnTheChannel = false;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            names.add(e.getEventType().getName());
            if (e.getEventType().getName().equals("dev.weft.FiberPark")
                    && e.getString("blocker").startsWith("the input of channel")) {
                parkedOnTheChannel |= e.getDuration().toMillis() >= 45;
            }
            if (e.getEventType().getName().equals("dev.weft.FiberSpawn") && e.getString("fiber").contains("recorded")) {
                spawned = e.getString("fiber");
            }
        }
        Files.delete(file);
        assertTrue(spawned != null, "the named fiber's spawn");
        assertTrue(names.contains("dev.weft.FiberEnd"));
        assertTrue(parkedOnTheChannel, "the 50 ms wait on the channel, with what it waited on");
        assertTrue(names.contains("dev.weft.Deadlock"));
        assertTrue(names.contains("dev.weft.StuckCarrier"));
        assertTrue(names.contains("dev.weft.Steal"), "2000 yielding fibers on two carriers: some are stolen");
    }
}
