package dev.weft.bench.harness;

import dev.weft.samples.Millions;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.management.JMException;
import javax.management.ObjectName;

/** What the harnesses measure with: the live heap, and the process's resident memory. */
final class Measure {
    private Measure() {
    }

    /**
     * Bytes of the live objects, as HotSpot's class histogram counts them after a full collection: exact, and
     * the same whatever the collector (the heap "in use" after {@code System.gc()} also counts space a
     * collector has not compacted, which differs between collectors by 10% of these figures). Where that
     * command is missing, the heap in use after full collections.
     */
    static long heap() {
        try {
            String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                    new Object[] {new String[0]}, new String[] {String[].class.getName()});
            String[] lines = histogram.strip().split("\\R");
            String[] total = lines[lines.length - 1].trim().split("\\s+"); // "Total <instances> <bytes>"
            return Long.parseLong(total[2]);
        } catch (JMException | RuntimeException e) {
            return Millions.usedHeapAfterGc();
        }
    }

    /** Resident set size of this JVM in bytes (Linux), or -1 where /proc is not there. */
    static long rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** Prints one result line in the form run.sh collects: {@code RESULT key value}. */
    static void result(String key, Object value) {
        System.out.println("RESULT " + key + " " + value);
    }

    /** Waits until {@code counter} reaches {@code n}, then a little more for the last ones to block. */
    static void awaitCount(java.util.concurrent.atomic.AtomicInteger counter, int n) {
        try {
            while (counter.get() < n) {
                Thread.sleep(5);
            }
            Thread.sleep(200);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
