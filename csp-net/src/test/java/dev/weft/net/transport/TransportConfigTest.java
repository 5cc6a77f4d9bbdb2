package dev.weft.net.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/** A configuration says what is wrong with it, and never prints its secret. */
class TransportConfigTest {
    private static final Duration I = Duration.ofMillis(100);
    private static final Duration T = Duration.ofSeconds(1);

    @Test
    @Timeout(5)
    void badPartsAreRefusedWithAReason() {
        assertRefused("needs a host", () -> new TransportConfig(null, 0, null, null, I, T, 4096));
        assertRefused("needs a host", () -> new TransportConfig(" ", 0, null, null, I, T, 4096));
        assertRefused("port 70000 is out of range", () -> new TransportConfig("h", 70000, null, null, I, T, 4096));
        assertRefused("port -1 is out of range", () -> new TransportConfig("h", -1, null, null, I, T, 4096));
        assertRefused("the secret is empty", () -> new TransportConfig("h", 0, "", null, I, T, 4096));
        assertRefused("heartbeatInterval must be a positive duration", () -> new TransportConfig("h", 0, null, null, null, T, 4096));
        assertRefused("heartbeatInterval must be a positive duration", () -> new TransportConfig("h", 0, null, null, Duration.ZERO, T, 4096));
        assertRefused("heartbeatTimeout must be a positive duration", () -> new TransportConfig("h", 0, null, null, I, Duration.ofSeconds(-1), 4096));
        assertRefused("must be longer than heartbeatInterval", () -> new TransportConfig("h", 0, null, null, T, I, 4096));
        assertRefused("maxFrameBytes 100 is below 512", () -> new TransportConfig("h", 0, null, null, I, T, 100));
    }

    @Test
    @Timeout(5)
    void theSecretStaysOutOfToString() {
        TransportConfig c = new TransportConfig("h", 1, "hunter2", null, I, T, 4096);
        assertFalse(c.toString().contains("hunter2"), c.toString());
        assertTrue(c.toString().contains("secret=set"), c.toString());
        assertEquals("hunter2", c.secret());
    }

    private static void assertRefused(String part, Executable make) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, make);
        assertTrue(e.getMessage().contains(part), e.getMessage());
    }
}
