package dev.weft.weaver.agent;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AgentFilterTest {
    private final ClassLoader app = getClass().getClassLoader();

    @Test
    void ignoresTheJdkByteBuddyAndTheWeaver() {
        for (String name : new String[] {"java/lang/String", "javax/swing/JFrame", "jdk/internal/Foo", "sun/misc/Unsafe",
                "com/sun/net/httpserver/HttpServer", "net/bytebuddy/ByteBuddy", "dev/weft/weaver/Weaver",
                "dev/weft/weaver/shaded/asm/ClassReader", "dev.weft.weaver.agent.WeftAgent"}) {
            assertTrue(AgentNames.ignores(name, app), name);
        }
    }

    @Test
    void ignoresTheBootstrapLoaderAndNamelessClasses() {
        assertTrue(AgentNames.ignores("com/acme/Foo", null));
        assertTrue(AgentNames.ignores(null, app));
    }

    @Test
    void weavesApplicationsAndTheRuntime() {
        for (String name : new String[] {"com/acme/Foo", "dev/weft/csp/Channel", "javafx/Foo", "sunny/Day",
                "dev/weft/weaverish/X"}) {
            assertFalse(AgentNames.ignores(name, app), name);
        }
    }
}
