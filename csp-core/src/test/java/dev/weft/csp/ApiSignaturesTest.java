package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The API ({@code dev.weft.csp}) names no internal type: no public or protected member of a public type there,
 * nor a public member it inherits, is declared in or mentions {@code dev.weft.csp.runtime} or
 * {@code dev.weft.csp.spi}. (Woven code's {@code dev.weft.csp.abi} is exported to every module, as the API.)
 * What the jar's automatic module exports beyond the API is then reachable only by naming an internal package.
 */
class ApiSignaturesTest {
    private static final List<String> INTERNAL = List.of("dev.weft.csp.runtime.", "dev.weft.csp.spi.");
    @Test
    void noInternalTypeAppearsInTheApi() throws Exception {
        List<String> leaks = new ArrayList<>();
        for (Class<?> c : apiTypes()) {
            Class<?> superclass = c.getSuperclass();
            if (superclass != null && internal(superclass.getName()) && c != Fiber.class) {
                leaks.add(c.getName() + " extends " + superclass.getName());
            }
            for (Type t : c.getGenericInterfaces()) {
                check(leaks, c.getName() + " implements", t);
            }
            List<Member> members = new ArrayList<>();
            members.addAll(List.of(c.getDeclaredMethods()));
            members.addAll(List.of(c.getDeclaredConstructors()));
            members.addAll(List.of(c.getDeclaredFields()));
            for (Method m : c.getMethods()) {
                if (internal(m.getDeclaringClass().getName()) && !inheritedByTheFiberFromItsRuntimeBase(c, m)) {
                    leaks.add(c.getName() + " inherits " + m);
                }
            }
            for (Member m : members) {
                if (!Modifier.isPublic(m.getModifiers()) && !Modifier.isProtected(m.getModifiers()) || m.isSynthetic()) {
                    continue;
                }
                String where = c.getName() + "." + m.getName();
                if (m instanceof Field) {
                    check(leaks, where, ((Field) m).getGenericType());
                } else {
                    Executable e = (Executable) m;
                    if (e instanceof Method) {
                        check(leaks, where, ((Method) e).getGenericReturnType());
                    }
                    for (Type t : e.getGenericParameterTypes()) {
                        check(leaks, where, t);
                    }
                    for (Type t : e.getGenericExceptionTypes()) {
                        check(leaks, where, t);
                    }
                }
            }
        }
        assertEquals(List.of(), leaks.stream().sorted().toList(), "internal types in the API");
    }

    /**
     * A fiber is the scheduler's unit itself, so that it costs no handle object: it extends the runtime's
     * {@code Schedulable}, whose only public member, {@code lastCarrier()}, names no internal type.
     */
    private static boolean inheritedByTheFiberFromItsRuntimeBase(Class<?> c, Method m) {
        return c == Fiber.class && m.getName().equals("lastCarrier") && m.getParameterCount() == 0;
    }

    private static void check(List<String> leaks, String where, Type t) {
        String name = t.getTypeName();
        for (String p : INTERNAL) {
            if (name.contains(p)) {
                leaks.add(where + ": " + name);
            }
        }
    }

    private static boolean internal(String name) {
        return INTERNAL.stream().anyMatch(name::startsWith);
    }

    /** Every public type of the package, nested ones included, as compiled. */
    private static List<Class<?>> apiTypes() throws IOException, URISyntaxException, ClassNotFoundException {
        Path dir = Path.of(Channel.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/weft/csp");
        List<Class<?>> types = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                String simple = f.getFileName().toString().replace(".class", "");
                Class<?> c = Class.forName("dev.weft.csp." + simple, false, Channel.class.getClassLoader());
                if (Modifier.isPublic(c.getModifiers()) && isPubliclyReachable(c)) {
                    types.add(c);
                }
            }
        }
        return types;
    }

    private static boolean isPubliclyReachable(Class<?> c) {
        for (Class<?> o = c; o != null; o = o.getDeclaringClass()) {
            if (!Modifier.isPublic(o.getModifiers())) {
                return false;
            }
        }
        return !c.isAnonymousClass() && !c.isLocalClass();
    }
}
