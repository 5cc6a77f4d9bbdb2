package dev.weft.maven;

import static dev.weft.maven.FakeEngine.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.weaver.WeaveError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InPlaceWeaverTest {
    private static final FileTime LONG_AGO = FileTime.fromMillis(1_000_000_000_000L);

    @TempDir
    Path dir;
    private final FakeEngine engine = new FakeEngine();
    private final InPlaceWeaver weaver = new InPlaceWeaver(engine);

    private Path file(String name, String text) throws IOException {
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        Files.write(f, bytes(text));
        Files.setLastModifiedTime(f, LONG_AGO);
        return f;
    }

    private static String read(Path f) throws IOException {
        return Files.readString(f, StandardCharsets.UTF_8);
    }

    @Test
    void rewritesOnlyTheClassesTheEngineChanged() throws IOException {
        Path woven = file("classes/app/Main.class", "pause");
        Path plain = file("classes/app/Plain.class", "plain");
        Path test = file("test-classes/app/MainTest.class", "pause in test");
        Path resource = file("classes/app/pause.properties", "pause=yes");

        InPlaceWeaver.Report r = weaver.weave(List.of(dir.resolve("classes"), dir.resolve("test-classes")));

        assertEquals(new InPlaceWeaver.Report(3, 2, 0, List.of()), r);
        assertEquals("WOVEN pause", read(woven));
        assertEquals("WOVEN pause in test", read(test));
        assertEquals("plain", read(plain));
        assertEquals(LONG_AGO, Files.getLastModifiedTime(plain), "untouched files keep their time stamp");
        assertEquals("pause=yes", read(resource));
        try (Stream<Path> s = Files.walk(dir)) {
            assertEquals(0, s.filter(p -> p.toString().endsWith(".weaving")).count(), "no temporary file left");
        }
    }

    @Test
    void classesWovenByAnEarlierBuildAreSkipped() throws IOException {
        Path woven = file("classes/app/Main.class", "WOVEN pause");
        InPlaceWeaver.Report r = weaver.weave(List.of(dir.resolve("classes")));
        assertEquals(new InPlaceWeaver.Report(1, 0, 1, List.of()), r);
        assertEquals(0, engine.weaveCalls.get());
        assertEquals(LONG_AGO, Files.getLastModifiedTime(woven));
    }

    @Test
    void weavingTwiceChangesNothingTheSecondTime() throws IOException {
        file("classes/app/Main.class", "pause");
        weaver.weave(List.of(dir.resolve("classes")));
        InPlaceWeaver.Report again = weaver.weave(List.of(dir.resolve("classes")));
        assertEquals(new InPlaceWeaver.Report(1, 0, 1, List.of()), again);
    }

    @Test
    void everyErrorIsCollectedAndNoFileIsChanged() throws IOException {
        Path bad = file("classes/com/acme/Bad.class", "boom");
        Path good = file("classes/com/acme/Good.class", "pause");
        file("test-classes/org/x/Bad.class", "boom");

        InPlaceWeaver.Report r = weaver.weave(List.of(dir.resolve("classes"), dir.resolve("test-classes")));

        assertEquals(List.of(
                "com/acme/Bad.java:42: pausable call inside synchronized",
                "com/acme/Bad.java:57: pausable call in a constructor",
                "org/x/Bad.java:42: pausable call inside synchronized",
                "org/x/Bad.java:57: pausable call in a constructor"),
                r.errors().stream().map(WeaveError::toString).toList());
        assertEquals("boom", read(bad));
        assertEquals("pause", read(good), "no class is rewritten when any has errors");
        assertEquals(1, r.woven());
    }
}
