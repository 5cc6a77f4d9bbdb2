package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class DeadlockProbesTest {
    @Test
    void theOptionsThatKeepProbesFromAnsweringAreNamed() {
        assertTrue(DeadlockProbes.blindness(List.of("-Xmx1g", "--finalization=disabled"))
                .contains("finalization is disabled (--finalization=disabled)"));
        assertTrue(DeadlockProbes.blindness(List.of("-XX:+DisableExplicitGC"))
                .contains("System.gc() is disabled (-XX:+DisableExplicitGC)"));
        assertNull(DeadlockProbes.blindness(List.of("-Xmx1g", "-XX:-DisableExplicitGC", "--finalization=enabled")));
    }
}
