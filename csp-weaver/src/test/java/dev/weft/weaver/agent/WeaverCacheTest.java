package dev.weft.weaver.agent;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

class WeaverCacheTest {
    @Test
    void oneEnginePerClassLoader() {
        WeaverCache cache = new WeaverCache();
        ClassLoader a = new ClassLoader(getClass().getClassLoader()) { };
        ClassLoader b = new ClassLoader(getClass().getClassLoader()) { };
        assertSame(cache.apply(a), cache.apply(a));
        assertNotSame(cache.apply(a), cache.apply(b));
        assertNotNull(cache.apply(null));
    }

    @Test
    void theAgentArgumentPreemptiveTurnsChecksOn() {
        org.junit.jupiter.api.Assertions.assertTrue(WeftAgent.isPreemptive("preemptive"));
        org.junit.jupiter.api.Assertions.assertTrue(WeftAgent.isPreemptive("x, preemptive"));
        org.junit.jupiter.api.Assertions.assertFalse(WeftAgent.isPreemptive(null));
        org.junit.jupiter.api.Assertions.assertFalse(WeftAgent.isPreemptive(""));
    }
}
