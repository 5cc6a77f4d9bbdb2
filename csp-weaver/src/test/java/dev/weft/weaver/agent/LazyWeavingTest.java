package dev.weft.weaver.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The agent's start-up: the weaving transformer is built only when a class that may need weaving loads, and
 * {@link ClassFileScan} tells such classes from their bytes (real class files of this test).
 */
class LazyWeavingTest {
    /** No lambda, no Weft: cannot need weaving. */
    static final class Plain {
        int twice(int x) {
            return 2 * x;
        }
    }

    /** Makes a lambda of a JDK interface, which is never pausable. */
    static final class MakesAJdkLambda {
        Supplier<String> hello() {
            return () -> "hello";
        }
    }

    /** An interface of the user's that names Weft (as a pausable one does, with its annotation). */
    interface LooksPausable {
        String WEFT = "dev/weft/csp/Pausable";

        void run();
    }

    /** An interface of the user's that does not. */
    interface Plainly {
        void run();
    }

    /** Makes lambdas of both. */
    static final class MakesUserLambdas {
        LooksPausable pausable() {
            return () -> { };
        }
    }

    /** Makes a lambda of the plain one only. */
    static final class MakesAPlainUserLambda {
        Plainly plain() {
            return () -> { };
        }
    }

    /** Names Weft's API (here in a constant: what matters is that its constant pool holds the name). */
    static final class NamesWeft {
        String annotation() {
            return "dev/weft/csp/Pausable";
        }
    }

    private static byte[] bytesOf(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
            return in.readAllBytes();
        }
    }

    @Test
    void theBytesTellWhichClassesMayNeedWeaving() throws IOException {
        ClassLoader app = getClass().getClassLoader();
        assertFalse(ClassFileScan.mayNeedWeaving(bytesOf(Plain.class), app));
        assertTrue(ClassFileScan.mayNeedWeaving(bytesOf(NamesWeft.class), app));
        assertFalse(ClassFileScan.mayNeedWeaving(bytesOf(MakesAJdkLambda.class), app), "a JDK interface");
        assertTrue(ClassFileScan.mayNeedWeaving(bytesOf(MakesUserLambdas.class), app), "a user interface naming Weft");
        assertFalse(ClassFileScan.mayNeedWeaving(bytesOf(MakesAPlainUserLambda.class), app), "one that does not");
        assertTrue(ClassFileScan.mayNeedWeaving(bytesOf(MakesAPlainUserLambda.class), null), "no loader: unknown");
        assertFalse(ClassFileScan.mayNeedWeaving(null, app));
        assertTrue(ClassFileScan.lambdaInterfaces(bytesOf(MakesUserLambdas.class)).contains(
                LooksPausable.class.getName().replace('.', '/')));
        assertTrue(ClassFileScan.contains("xxdev/weft/csp/".getBytes(), "dev/weft/csp/".getBytes()));
        assertFalse(ClassFileScan.contains("dev/weft/cs".getBytes(), "dev/weft/csp/".getBytes()));
    }

    @Test
    void theWeavingTransformerIsBuiltOnlyWhenAClassMayNeedIt() throws Exception {
        AtomicInteger built = new AtomicInteger();
        AtomicInteger asked = new AtomicInteger();
        ClassFileTransformer counting = new ClassFileTransformer() {
            @Override
            public byte[] transform(Module module, ClassLoader loader, String name, Class<?> redefined,
                    ProtectionDomain domain, byte[] buffer) {
                asked.incrementAndGet();
                return null;
            }
        };
        LazyWeaving lazy = new LazyWeaving(() -> {
            built.incrementAndGet();
            return counting;
        });
        ClassLoader app = getClass().getClassLoader();
        Module m = getClass().getModule();
        assertNull(lazy.transform(m, app, "com/acme/Plain", null, null, bytesOf(Plain.class)));
        assertNull(lazy.transform(m, app, "java/lang/Thing", null, null, bytesOf(NamesWeft.class)));
        assertFalse(lazy.started(), "nothing that may need weaving has loaded yet");
        assertEquals(0, built.get());
        assertNull(lazy.transform(m, app, "com/acme/JdkLambda", null, null, bytesOf(MakesAJdkLambda.class)));
        assertFalse(lazy.started(), "a lambda of a JDK interface cannot need weaving");
        lazy.transform(m, app, "com/acme/Lambdas", null, null, bytesOf(MakesUserLambdas.class));
        lazy.transform(m, app, "com/acme/Weft", null, null, bytesOf(NamesWeft.class));
        assertTrue(lazy.started());
        assertEquals(1, built.get(), "built once");
        assertEquals(2, asked.get());
    }
}
