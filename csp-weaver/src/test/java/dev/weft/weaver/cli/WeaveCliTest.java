package dev.weft.weaver.cli;

import static dev.weft.weaver.tool.FakeEngine.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.weaver.ClassFinder;
import dev.weft.weaver.tool.ClassTransform;
import dev.weft.weaver.tool.FakeEngine;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WeaveCliTest {
    @TempDir
    Path dir;
    private final FakeEngine engine = new FakeEngine();
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return run(cp -> engine, args);
    }

    private int run(Function<ClassFinder, ClassTransform> engineFor, String... args) {
        return WeaveCli.run(args, print(out), print(err), engineFor);
    }

    private static PrintStream print(OutputStream o) {
        return new PrintStream(o, true, StandardCharsets.UTF_8);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private Path file(Path root, String name, String text) throws IOException {
        Path f = root.resolve(name);
        Files.createDirectories(f.getParent());
        return Files.write(f, bytes(text));
    }

    private Path jar(String name, Map<String, String> entries) throws IOException {
        Path jar = dir.resolve(name);
        try (OutputStream o = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(o)) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                if (!e.getKey().endsWith("/")) {
                    zip.write(bytes(e.getValue()));
                }
                zip.closeEntry();
            }
        }
        return jar;
    }

    /** app.jar: a manifest, a directory entry, a class to weave, a plain class and a resource. */
    private Path appJar() throws IOException {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n");
        entries.put("app/", "");
        entries.put("app/Main.class", "pause");
        entries.put("app/Plain.class", "plain");
        entries.put("app/logo.txt", "logo");
        return jar("app.jar", entries);
    }

    private String read(Path f) throws IOException {
        return Files.readString(f, StandardCharsets.UTF_8);
    }

    @Test
    void badArgumentsPrintTheProblemAndTheUsageAndExitWithTwo() {
        assertEquals(2, run("-d", dir.resolve("out").toString()));
        assertTrue(err().contains("weft: no input"), err());
        assertTrue(err().contains("usage: java -jar csp-weaver.jar [-cp PATH] [--preemptive] IN... -d OUT"), err());
        assertEquals("", out());
    }

    @Test
    void helpPrintsTheUsageAndExitsWithZero() {
        assertEquals(0, run("--help"));
        assertTrue(out().contains("usage:"), out());
    }

    @Test
    void outputReceivesEveryClassWovenOrNotAndEveryOtherFile() throws IOException {
        Path in = dir.resolve("classes");
        file(in, "app/Main.class", "pause here");
        byte[] plain = Files.readAllBytes(file(in, "app/util/Plain.class", "plain"));
        file(in, "app/messages.properties", "hello=world");
        file(in, "META-INF/services/x.Y", "app.Impl");
        Path outDir = dir.resolve("out");

        assertEquals(0, run(in.toString(), "-d", outDir.toString()), err());

        assertEquals("WOVEN pause here", read(outDir.resolve("app/Main.class")));
        assertArrayEquals(plain, Files.readAllBytes(outDir.resolve("app/util/Plain.class")));
        assertEquals("hello=world", read(outDir.resolve("app/messages.properties")));
        assertEquals("app.Impl", read(outDir.resolve("META-INF/services/x.Y")));
        assertEquals("weft: 2 classes, 1 woven, 2 other files -> " + outDir, out().strip());
        assertEquals("", err());
    }

    @Test
    void jarEntriesBecomeFilesUnderTheOutput() throws IOException {
        Path outDir = dir.resolve("out");

        assertEquals(0, run(appJar().toString(), "-d", outDir.toString()), err());

        assertEquals("WOVEN pause", read(outDir.resolve("app/Main.class")));
        assertEquals("plain", read(outDir.resolve("app/Plain.class")));
        assertEquals("logo", read(outDir.resolve("app/logo.txt")));
        assertEquals("Manifest-Version: 1.0\n", read(outDir.resolve("META-INF/MANIFEST.MF")));
        assertTrue(out().contains("2 classes, 1 woven, 2 other files"), out());
    }

    @Test
    void anOutputNamedDotJarReceivesTheEntriesAsAJarInTheirOrder() throws IOException {
        Path outJar = dir.resolve("woven/app-woven.jar");

        assertEquals(0, run(appJar().toString(), "-d", outJar.toString()), err());

        Map<String, String> written = new LinkedHashMap<>();
        try (ZipFile zip = new ZipFile(outJar.toFile())) {
            for (ZipEntry e : Collections.list(zip.entries())) {
                written.put(e.getName(), new String(zip.getInputStream(e).readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        assertEquals(List.of("META-INF/MANIFEST.MF", "app/Main.class", "app/Plain.class", "app/logo.txt"),
                List.copyOf(written.keySet()));
        assertEquals("WOVEN pause", written.get("app/Main.class"));
        assertEquals("logo", written.get("app/logo.txt"));
        assertTrue(out().contains("2 classes, 1 woven, 2 other files -> " + outJar), out());
    }

    @Test
    void classesAlreadyWovenAreCopiedAndCounted() throws IOException {
        Path in = dir.resolve("classes");
        file(in, "a/A.class", "WOVEN pause");
        Path outDir = dir.resolve("out");
        assertEquals(0, run(in.toString(), "-d", outDir.toString()), err());
        assertEquals("WOVEN pause", read(outDir.resolve("a/A.class")));
        assertEquals(0, engine.weaveCalls.get());
        assertTrue(out().contains("1 class, 0 woven (1 already woven), 0 other files"), out());
    }

    @Test
    void everyErrorOfEveryClassIsPrintedOnePerLineAndTheExitStatusIsOne() throws IOException {
        Path in = dir.resolve("classes");
        file(in, "com/acme/Bad.class", "boom");
        file(in, "com/acme/Good.class", "pause");
        Path other = dir.resolve("more");
        file(other, "org/x/Bad.class", "boom too");
        Path outDir = dir.resolve("out");

        assertEquals(1, run(in.toString(), other.toString(), "-d", outDir.toString()));

        List<String> lines = err().lines().toList();
        assertEquals(List.of(
                "com/acme/Bad.java:42: pausable call inside synchronized",
                "com/acme/Bad.java:57: pausable call in a constructor",
                "org/x/Bad.java:42: pausable call inside synchronized",
                "org/x/Bad.java:57: pausable call in a constructor"), lines.subList(0, 4));
        assertTrue(lines.get(4).startsWith("weft: 4 errors"), lines.get(4));
        assertFalse(Files.exists(outDir.resolve("com/acme/Bad.class")), "a class with errors is not written");
        assertEquals("WOVEN pause", read(outDir.resolve("com/acme/Good.class")));
        assertEquals("", out());
    }

    @Test
    void theEngineSeesTheInputsFirstThenTheClasspath() throws IOException {
        Path in = dir.resolve("classes");
        file(in, "app/Main.class", "pause");
        file(in, "app/Shared.class", "from input");
        Path lib = jar("lib.jar", Map.of("lib/Lib.class", "from lib", "app/Shared.class", "from lib"));
        List<String> seen = new ArrayList<>();
        Function<ClassFinder, ClassTransform> recording = cp -> new ClassTransform() {
            @Override
            public boolean isWoven(byte[] classFile) {
                return false;
            }

            @Override
            public byte[] weave(byte[] classFile) {
                seen.add(new String(cp.find("app/Shared"), StandardCharsets.UTF_8));
                seen.add(new String(cp.find("lib/Lib"), StandardCharsets.UTF_8));
                assertNull(cp.find("nowhere/Missing"));
                return classFile;
            }
        };
        assertEquals(0, run(recording, "-cp", lib.toString(), in.toString(), "-d", dir.resolve("out").toString()),
                err());
        assertEquals(List.of("from input", "from lib"), seen.subList(0, 2));
    }

    @Test
    void theFirstInputHoldingAClassWinsAndTheOtherIsReported() throws IOException {
        Path first = dir.resolve("first");
        Path second = dir.resolve("second");
        file(first, "a/A.class", "first");
        file(second, "a/A.class", "second");
        Path outDir = dir.resolve("out");
        assertEquals(0, run(first.toString(), second.toString(), "-d", outDir.toString()), err());
        assertEquals("first", read(outDir.resolve("a/A.class")));
        assertTrue(err().contains("a/A.class in " + second + " is hidden by the one in " + first), err());
    }

    @Test
    void aJarEntryThatWouldEscapeTheOutputIsRefused() throws IOException {
        Path evil = jar("evil.jar", Map.of("../escaped.txt", "gotcha"));
        Path outDir = dir.resolve("out");
        assertEquals(1, run(evil.toString(), "-d", outDir.toString()));
        assertTrue(err().contains("outside"), err());
        assertFalse(Files.exists(dir.resolve("escaped.txt")));
    }

    @Test
    void anUnreadableJarIsReportedNotThrown() throws IOException {
        Path broken = Files.write(dir.resolve("broken.jar"), bytes("not a zip"));
        assertEquals(1, run(broken.toString(), "-d", dir.resolve("out").toString()));
        assertTrue(err().contains("broken.jar"), err());
    }

    @Test
    void theRealEngineIsUsedByDefault() throws IOException {
        // A resource-only input: the engine is created but never given a class.
        Path in = dir.resolve("classes");
        file(in, "readme.txt", "hi");
        Path outDir = dir.resolve("out");
        assertEquals(0, WeaveCli.run(new String[] {in.toString(), "-d", outDir.toString()}, print(out), print(err)));
        assertNotNull(read(outDir.resolve("readme.txt")));
    }
}
