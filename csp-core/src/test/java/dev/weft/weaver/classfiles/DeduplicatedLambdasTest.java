package dev.weft.weaver.classfiles;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.tree.ClassNode;

/**
 * Compiled with {@code -g:none}, javac gives identical lambdas one synthetic body, even when one is a
 * {@code CSProcess} and the other a {@code Runnable}. The shared body needs both its plain and its woven form:
 * the program runs both lambdas (and method references to a plain and a pausable method, each used both
 * ways) on a plain thread and as fibers.
 */
@Timeout(60)
class DeduplicatedLambdasTest {
    private static final String PROGRAM = """
            package dd;

            import dev.weft.csp.CSProcess;
            import dev.weft.csp.Channel;
            import dev.weft.csp.One2OneChannel;
            import dev.weft.csp.Pausable;
            import dev.weft.csp.Weft;
            import java.util.ArrayList;
            import java.util.List;

            public class Dedup {
                static int plain;
                static final One2OneChannel<Integer> BOX = Channel.one2one(4);

                static void bump() {
                    plain++;
                }

                @Pausable
                static void put() {
                    BOX.out().write(3);
                }

                public static List<Object> run() throws InterruptedException {
                    List<Object> seen = new ArrayList<>();
                    CSProcess p = () -> { plain++; };
                    Runnable r = () -> { plain++; };
                    r.run();
                    Weft.run(p);
                    seen.add(plain);
                    One2OneChannel<Integer> c = Channel.one2one(4);
                    CSProcess w = () -> c.out().write(10);
                    Runnable rw = () -> c.out().write(10);
                    Thread t = new Thread(rw);
                    t.start();
                    t.join();
                    Weft.run(w);
                    seen.add(c.in().read() + c.in().read());
                    CSProcess mp = Dedup::bump;
                    Runnable mr = Dedup::bump;
                    mr.run();
                    Weft.run(mp);
                    seen.add(plain);
                    CSProcess pp = Dedup::put;
                    Runnable pr = Dedup::put;
                    pr.run();
                    Weft.run(pp);
                    seen.add(BOX.in().read() + BOX.in().read());
                    return seen;
                }
            }
            """;

    @TempDir
    Path dir;

    @Test
    void aLambdaBodySharedByAPausableAndAPlainInterfaceKeepsBothForms() throws Exception {
        Path classes = InMemoryJavac.compile(dir.resolve("classes"), 17, "-g:none", Map.of("dd.Dedup", PROGRAM));
        Map<String, byte[]> compiled = ClassFiles.read(classes);
        assertEquals(List.of("lambda$run$0", "lambda$run$2"), lambdaBodies(compiled.get("dd/Dedup")),
                "javac shares one body between each CSProcess and its twin Runnable");

        Map<String, byte[]> woven = ClassFiles.weave(compiled, classes);
        try (URLClassLoader loader = ClassFiles.loader(ClassFiles.write(dir.resolve("woven"), woven))) {
            assertEquals(List.of(), BytecodeCheck.problems(woven, loader));
            Object seen = loader.loadClass("dd.Dedup").getMethod("run").invoke(null);
            assertEquals(List.of(2, 20, 4, 6), seen);
        }
    }

    private static List<String> lambdaBodies(byte[] classFile) {
        ClassNode cls = new ClassNode();
        new ClassReader(classFile).accept(cls, ClassReader.SKIP_CODE);
        return cls.methods.stream().map(m -> m.name).filter(n -> n.startsWith("lambda$")).sorted().toList();
    }
}
