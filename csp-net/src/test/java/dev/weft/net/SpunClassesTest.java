package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.csp.Fiber;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The class files of csp-core and csp-net, as built, link no call site that spins method-handle classes on first
 * use where a node's start would run it: no string concatenation through {@code StringConcatFactory} (the modules
 * compile with {@code -XDstringConcat=inline}), and {@link NodeAddress}, a map key from a node's first moment, has
 * its own {@code equals} and {@code hashCode} rather than a record's {@code ObjectMethods} ones. Each such site costs
 * a fresh JVM a few spun classes, and a worker JVM met some hundred of them: enough that the JIT compiled the JDK's
 * bytecode generator with C2.
 */
@Timeout(60)
class SpunClassesTest {
    private static final String CONCAT = "java/lang/invoke/StringConcatFactory";

    @Test
    void noIndyStringConcatenationInTheLibrary() throws IOException, URISyntaxException {
        List<String> offenders = new ArrayList<>();
        int classes = 0;
        for (Class<?> module : List.of(Fiber.class, Node.class)) {
            for (ClassBytes c : classesOf(module)) {
                classes++;
                if (mentions(c.bytes, CONCAT)) {
                    offenders.add(c.name);
                }
            }
        }
        assertTrue(classes > 100, "read the classes of both modules, got " + classes);
        assertEquals(List.of(), offenders, "classes that concatenate strings through invokedynamic");
    }

    @Test
    void nodeAddressLinksNoObjectMethods() throws IOException {
        try (InputStream in = NodeAddress.class.getResourceAsStream("NodeAddress.class")) {
            byte[] bytes = in.readAllBytes();
            assertTrue(!mentions(bytes, "java/lang/runtime/ObjectMethods"), "NodeAddress's equals/hashCode are its own");
            assertTrue(!mentions(bytes, CONCAT));
        }
    }

    @Test
    void nodeAddressEqualityIsByHostAndPort() {
        NodeAddress a = new NodeAddress("10.0.0.1", 9000);
        assertEquals(a, new NodeAddress("10.0.0.1", 9000));
        assertEquals(a.hashCode(), new NodeAddress("10.0.0.1", 9000).hashCode());
        assertEquals(a, NodeAddress.parse("10.0.0.1:9000"));
        assertNotEquals(a, new NodeAddress("10.0.0.1", 9001));
        assertNotEquals(a, new NodeAddress("10.0.0.2", 9000));
        assertNotEquals(a, null);
        assertNotEquals(a, "10.0.0.1:9000");
        assertEquals("[::1]:80", new NodeAddress("::1", 80).toString());
    }

    /** One class file: its name and bytes. */
    private record ClassBytes(String name, byte[] bytes) {
    }

    /** The class files of the directory or jar that {@code member} was loaded from. */
    private static List<ClassBytes> classesOf(Class<?> member) throws IOException, URISyntaxException {
        Path where = Path.of(member.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<ClassBytes> out = new ArrayList<>();
        if (Files.isDirectory(where)) {
            try (Stream<Path> files = Files.walk(where)) {
                for (Path p : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".class"))::iterator) {
                    out.add(new ClassBytes(where.relativize(p).toString(), Files.readAllBytes(p)));
                }
            }
        } else {
            try (JarFile jar = new JarFile(where.toFile())) {
                for (JarEntry e : (Iterable<JarEntry>) jar.stream()::iterator) {
                    if (e.getName().endsWith(".class")) {
                        try (InputStream in = jar.getInputStream(e)) {
                            out.add(new ClassBytes(e.getName(), in.readAllBytes()));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** Whether the class file's constant pool holds {@code name} (as UTF-8, which ASCII names are). */
    private static boolean mentions(byte[] classFile, String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        outer:
        for (int i = 0; i + n.length <= classFile.length; i++) {
            for (int j = 0; j < n.length; j++) {
                if (classFile[i + j] != n[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
