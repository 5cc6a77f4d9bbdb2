package dev.weft.net.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Worker JVMs start from the launcher's AOT cache, and never record one of their own. */
class AotCacheFlagsTest {
    @Test
    void theCacheAndItsModeArePassedOnButNotTheOptionsThatRecordACache() {
        assertEquals(List.of("-XX:AOTCache=app.aot", "-XX:AOTMode=on"), AotCacheFlags.of(List.of("-Xmx1g",
                "-XX:AOTCache=app.aot", "-XX:AOTMode=on", "-XX:AOTCacheOutput=x.aot", "-XX:AOTConfiguration=x.conf")));
    }

    @Test
    void workersOfALauncherWithoutACacheGetNoCacheOption() {
        List<String> cmd = Launcher.builder().jvmArgs("-Xmx64m").build().workerCommand("127.0.0.1:1", "P", List.of());
        assertTrue(cmd.stream().noneMatch(a -> a.startsWith("-XX:AOT")), cmd.toString()); // the test JVM has none
        assertEquals("-Xmx64m", cmd.get(3), cmd.toString()); // after the launcher's own -D and native access
    }
}
