package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.weaver.ClassFinder;
import dev.weft.weaver.WeaveException;
import dev.weft.weaver.Weaver;
import dev.weft.weaver.tool.ClassPath;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.InnerClassNode;
import org.objectweb.asm.tree.RecordComponentNode;
import org.objectweb.asm.util.CheckClassAdapter;

/**
 * Class files of Java 21 and 25 (records, sealed types, pattern matching, nestmates, indy concatenation),
 * compiled by a newer JDK's javac, woven in this JVM (on JDK 17 the engine reads class files the JVM could not
 * load), then verified and run in a child JVM of the newer JDK. Skipped when no JDK 21+ is installed.
 */
@Timeout(300)
class NewClassFilesTest {
    private static final Optional<NewerJdk> JDK = NewerJdk.find(21);
    private static final Map<Integer, Build> BUILDS = new ConcurrentHashMap<>();
    /** The class directories javac wrote, by label and release: each is compiled once (a javac JVM each). */
    private static final Map<String, Path> COMPILED = new ConcurrentHashMap<>();

    @TempDir
    static Path dir;

    /** One release's class files, as javac wrote them and as the engine wove them. */
    private record Build(Map<String, byte[]> compiled, Map<String, byte[]> woven, Path wovenDir) {
    }

    private static NewerJdk jdkFor(int release) {
        assumeTrue(JDK.isPresent(), "no JDK 21 or newer under /usr/lib/jvm");
        assumeTrue(JDK.get().feature() >= release, "the newest JDK found is " + JDK.get().feature());
        return JDK.get();
    }

    private static synchronized Build build(int release) throws IOException, InterruptedException {
        Build b = BUILDS.get(release);
        if (b == null) {
            b = compileAndWeave(jdkFor(release), release);
            BUILDS.put(release, b);
        }
        return b;
    }

    private static Build compileAndWeave(NewerJdk jdk, int release) throws IOException, InterruptedException {
        Path classes = release >= 25 ? compile(jdk, release, "programs", "ModernProgram", "Java25Program")
                : compile(jdk, release, "programs", "ModernProgram");
        Map<String, byte[]> compiled = ClassFiles.read(classes);
        Map<String, byte[]> woven = ClassFiles.weave(compiled, classes);
        return new Build(compiled, woven, ClassFiles.write(dir.resolve("woven" + release), woven));
    }

    /**
     * Compiles snippets (resources {@code NAME.java.txt}, package modern) with the newer JDK's javac, once per
     * {@code label} and release; callers only read the class files.
     */
    private static synchronized Path compile(NewerJdk jdk, int release, String label, String... programs)
            throws IOException, InterruptedException {
        Path done = COMPILED.get(label + release);
        if (done != null) {
            return done;
        }
        Path src = dir.resolve("src-" + label + release + "/modern");
        Path classes = dir.resolve("classes-" + label + release);
        Files.createDirectories(src);
        List<String> args = new ArrayList<>(List.of("--release", Integer.toString(release), "-g", "-d",
                classes.toString(), "-cp", ClassFiles.coreClasses().toString()));
        for (String program : programs) {
            Path file = src.resolve(program + ".java");
            Files.writeString(file, ClassFiles.resource(program + ".java.txt"));
            args.add(file.toString());
        }
        NewerJdk.Result javac = jdk.javac(dir, Duration.ofSeconds(120), args);
        assertEquals(0, javac.exitCode(), () -> "javac " + jdk.feature() + " --release " + release + ": " + javac);
        COMPILED.put(label + release, classes);
        return classes;
    }

    private static int major(int release) {
        return release + 44;
    }

    @ParameterizedTest(name = "--release {0}")
    @ValueSource(ints = {21, 25})
    void wovenClassesKeepTheirVersionAndAttributes(int release) throws Exception {
        Build b = build(release);

        for (String name : List.of("modern/ModernProgram", "modern/ModernProgram$Tally", "modern/ModernProgram$Shape")) {
            assertTrue(Weaver.isWoven(b.woven().get(name)), name + " has pausable code and is woven");
        }
        b.woven().forEach((name, bytes) -> assertEquals(major(release), ClassFiles.major(bytes), name));
        b.compiled().forEach((name, bytes) -> assertEquals(attributes(bytes), attributes(b.woven().get(name)), name));

        ClassNode host = node(b.woven().get("modern/ModernProgram"));
        assertTrue(host.nestMembers.containsAll(List.of("modern/ModernProgram$Shape", "modern/ModernProgram$Circle",
                "modern/ModernProgram$Rect", "modern/ModernProgram$Square", "modern/ModernProgram$Tally")),
                () -> "NestMembers " + host.nestMembers);
        ClassNode tally = node(b.woven().get("modern/ModernProgram$Tally"));
        assertEquals("modern/ModernProgram", tally.nestHostClass);
        assertEquals("java/lang/Record", tally.superName);
        assertNotNull(tally.recordComponents, "Record attribute");
        assertEquals(List.of("in Ldev/weft/csp/ChannelInput;", "name Ljava/lang/String;"),
                tally.recordComponents.stream().map(c -> c.name + " " + c.descriptor).toList());
        ClassNode shape = node(b.woven().get("modern/ModernProgram$Shape"));
        assertEquals(List.of("modern/ModernProgram$Circle", "modern/ModernProgram$Rect", "modern/ModernProgram$Square"),
                shape.permittedSubclasses);
        assertEquals("modern/ModernProgram", shape.nestHostClass);
    }

    @ParameterizedTest(name = "--release {0}")
    @ValueSource(ints = {21, 25})
    void wovenClassesVerifyAndLinkOnTheNewerJdk(int release) throws Exception {
        Build b = build(release);

        assertVerifyAndLinkOnTheNewerJdk(release, b.wovenDir(), b.woven().size());
    }

    /** Runs {@link BytecodeCheck} over {@code wovenDir} in a child JVM of the newer JDK, which can load them. */
    private static void assertVerifyAndLinkOnTheNewerJdk(int release, Path wovenDir, int classes) throws Exception {
        NewerJdk.Result r = jdkFor(release).java(dir, Duration.ofSeconds(120), List.of("-cp",
                classpath(wovenDir, ClassFiles.coreClasses(), ClassFiles.locationOf(BytecodeCheck.class),
                        ClassFiles.locationOf(Weaver.class), ClassFiles.locationOf(ClassReader.class),
                        ClassFiles.locationOf(ClassNode.class), ClassFiles.locationOf(CheckClassAdapter.class),
                        ClassFiles.locationOf(org.objectweb.asm.tree.analysis.Analyzer.class)),
                BytecodeCheck.class.getName(), wovenDir.toString()));

        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(List.of("checked " + classes + " classes"), r.lines(), r::toString);
    }

    @ParameterizedTest(name = "--release {0}")
    @ValueSource(ints = {21, 25})
    void theWovenProgramRunsOnTheNewerJdk(int release) throws Exception {
        Build b = build(release);
        // The watchdog is off: this checks the woven classes' output, and a cold JVM on a loaded machine can hold a
        // slice past any threshold while it links them (the watchdog has tests of its own).
        List<String> args = new ArrayList<>(List.of("-Dweft.stuckCarrierMillis=0", "-cp",
                classpath(b.wovenDir(), ClassFiles.coreClasses()), "modern.ModernProgram"));
        args.addAll(b.woven().keySet().stream().map(n -> n.replace('/', '.')).toList());

        NewerJdk.Result r = jdkFor(release).java(dir, Duration.ofSeconds(120), args);

        assertEquals(0, r.exitCode(), r::toString);
        assertEquals("", r.stderr(), r::toString);
        List<String> expected = new ArrayList<>(List.of(
                "linked " + b.woven().size(),
                "record true 2",
                "sealed true 3",
                "nestmates true",
                "modern \"class files\"",
                "  woven by weft",
                // area: the integer channel yields 1, 2, 3, ... in the order the program reads
                "area 1",           // Circle(0): the guard holds, the body reads 1
                "area 12",          // Circle(2): 3 * 2 * 2, no read
                "area 15",          // Rect(3, 4): the guard reads 2 (3 != 2), the next case reads 3: 12 + 3
                "area 1020",        // Rect(4, 5): the guard reads 4 (4 == 4): 20 + 1000
                "area 25",          // Square(5)
                "weigh 10",         // reads 5, doubles it
                "big 500",          // the selector reads 500 from the object channel
                "int 13",           // 7 + read 6
                "str 57",           // "hello".length() then read 7
                "rect 5",
                "large circle 9",   // the guard reads 8: 9 > 8
                "circle 1",         // the guard reads 9: 1 > 9 fails, the next case matches
                "other",            // 3.5
                "wide 20",          // reads 10: 20 > 10
                "neither",          // reads 11: 5 > 11 fails
                "circle 16",        // 4 + read 12
                "string s13",
                "a14b",
                "x15c" + (1L << 40) + "16" + 0.5,
                "offset 27",        // 10 + read 17
                "offset 17",        // 10 + 7
                "offset 46",        // 10 + read 18 * 2
                "tally=60",         // 19 + 20 + 21
                "Tally[in=null, name=z] true",
                "thread 60"));      // thread mode: a writer thread writes 10, 20, 30
        assertEquals(expected, r.lines(), r::toString);
    }

    /**
     * The engine runs on JDK 17, whose classes lack MatchException (new in JDK 21). A pausable method catching
     * {@code MatchException | IllegalStateException} needs their common superclass (RuntimeException) for its
     * handler's frame: weaving must get it right (or fail clearly, naming the class it lacks).
     *
     * <p>Fails when the tests run on JDK 17: the engine's class hierarchy takes the unknown MatchException for
     * a direct subclass of Object, and its analysis stops with "cannot analyse the bytecode: ... the weaver
     * never loads classes: Ljava/lang/RuntimeException;". Passes on JDK 21+, and with the newer JDK's classes
     * on the ClassFinder (next test).
     */
    @ParameterizedTest(name = "--release {0}")
    @ValueSource(ints = {21, 25})
    void aMultiCatchOfAnExceptionClassTheWeavingJdkLacksRunsOnTheNewerJdk(int release) throws Exception {
        Path classes = compile(jdkFor(release), release, "NewJdkTypes", "NewJdkTypes");
        if (Runtime.version().feature() < 21) {
            // The running JDK has no MatchException: frames cannot be computed, and the weaver says why.
            WeaveException e = assertThrows(WeaveException.class,
                    () -> ClassFiles.weave(ClassFiles.read(classes), classes));
            assertTrue(e.getMessage().contains("java.lang.MatchException is not on the weave classpath"), e.getMessage());
            return;
        }
        Path woven = ClassFiles.write(dir.resolve("woven-NewJdkTypes" + release),
                ClassFiles.weave(ClassFiles.read(classes), classes));

        assertRunsNewJdkTypes(release, woven);
    }

    /** The same class woven with the newer JDK's own class files ahead of the running JDK's: it runs. */
    @ParameterizedTest(name = "--release {0}")
    @ValueSource(ints = {21, 25})
    void aMultiCatchOfANewJdkExceptionWeavesWhenTheEngineIsGivenThatJdksClasses(int release) throws Exception {
        NewerJdk jdk = jdkFor(release);
        Path classes = compile(jdk, release, "NewJdkTypes", "NewJdkTypes");
        Map<String, byte[]> woven = new TreeMap<>();
        try (FileSystem image = FileSystems.newFileSystem(URI.create("jrt:/"), Map.of("java.home", jdk.home().toString()));
             ClassPath classpath = ClassFiles.classPath(classes)) {
            Weaver weaver = new Weaver(classpath.then(jdkClasses(image)));
            ClassFiles.read(classes).forEach((name, bytes) -> woven.put(name, weaver.weave(bytes)));
        }

        Path wovenDir = ClassFiles.write(dir.resolve("woven-NewJdkTypes-jrt" + release), woven);
        assertVerifyAndLinkOnTheNewerJdk(release, wovenDir, woven.size());
        assertRunsNewJdkTypes(release, wovenDir);
    }

    private void assertRunsNewJdkTypes(int release, Path woven) throws Exception {
        assertTrue(Weaver.isWoven(Files.readAllBytes(woven.resolve("modern/NewJdkTypes.class"))));
        NewerJdk.Result r = jdkFor(release).java(dir, Duration.ofSeconds(120), List.of("-cp",
                classpath(woven, ClassFiles.coreClasses()), "modern.NewJdkTypes"));

        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(List.of("caught match 10", "caught state 20", "value 3"), r.lines(), r::toString);
    }

    /** Class files of a JDK's run-time image, read through its jrt file system. */
    private static ClassFinder jdkClasses(FileSystem image) {
        return name -> {
            try (Stream<Path> modules = Files.list(image.getPath("/modules"))) {
                for (Path module : (Iterable<Path>) modules::iterator) {
                    Path f = module.resolve(name + ".class");
                    if (Files.isRegularFile(f)) {
                        return Files.readAllBytes(f);
                    }
                }
                return null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    @Test
    void java25ClassFilesRunOnJdk25() throws Exception {
        Build b = build(25);
        assertEquals(69, ClassFiles.major(b.woven().get("modern/Java25Program")));
        assertTrue(Weaver.isWoven(b.woven().get("modern/Java25Program")));

        NewerJdk.Result r = jdkFor(25).java(dir, Duration.ofSeconds(120), List.of("-cp",
                classpath(b.wovenDir(), ClassFiles.coreClasses()), "modern.Java25Program"));

        assertEquals(0, r.exitCode(), r::toString);
        assertEquals(List.of("n7,n14,n21"), r.lines(), r::toString);
    }

    private static String classpath(Path... entries) {
        return List.of(entries).stream().map(Path::toString).distinct().collect(Collectors.joining(File.pathSeparator));
    }

    private static ClassNode node(byte[] classFile) {
        ClassNode cn = new ClassNode();
        new ClassReader(classFile).accept(cn, ClassReader.SKIP_CODE);
        return cn;
    }

    /** The class-level attributes weaving must keep: nest, record, permitted subclasses, inner classes, source. */
    private static List<Object> attributes(byte[] classFile) {
        ClassNode cn = node(classFile);
        List<String> components = cn.recordComponents == null ? null
                : cn.recordComponents.stream().map((RecordComponentNode c) -> c.name + c.descriptor + c.signature).toList();
        List<String> inner = cn.innerClasses.stream()
                .map((InnerClassNode c) -> c.name + " " + c.outerName + " " + c.innerName + " " + c.access).toList();
        return java.util.Arrays.asList(cn.version, cn.access, cn.name, cn.signature, cn.superName, cn.interfaces,
                cn.sourceFile, cn.nestHostClass, cn.nestMembers, cn.permittedSubclasses, components, inner,
                cn.outerClass, cn.outerMethod, cn.outerMethodDesc);
    }
}
