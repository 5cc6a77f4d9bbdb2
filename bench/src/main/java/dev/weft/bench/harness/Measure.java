package dev.weft.bench.harness;

import dev.weft.samples.Millions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the harnesses measure with: heap after full collections, and the process's resident memory. */
final class Measure {
    private Measure() {
    }

    /** Heap bytes in use after full collections. */
    static long heap() {
        return Millions.usedHeapAfterGc();
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
