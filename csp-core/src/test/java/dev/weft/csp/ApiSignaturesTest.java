package dev.weft.csp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
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
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What csp-core's {@code module-info} exports to every module (the API, the weaver's ABI, the management
 * interface) names no type of a
 * package it keeps for the libraries built on Weft or for itself (the SPI, the runtime, the internals): no public or
 * protected member of a public type there, nor a public member it inherits, is declared in or mentions such a
 * package. So a program on the module path can use every signature it sees, and on the class path the internals are
 * reachable only by naming their packages. The API package holds the API alone: Weft's own classes are in
 * {@code dev.weft.csp.internal}, which no module may read.
 */
class ApiSignaturesTest {
    private static final ModuleDescriptor MODULE = descriptor();
    /** The top-level types of the API package: DESIGN.md's names. A class that is not one of them is internal. */
    private static final Set<String> API = Set.of("Alternative", "AltingChannelInput", "AltingChannelOutput",
            "Any2AnyChannel", "Any2OneChannel", "Any2OneConnection", "Barrier", "BlockingCallable", "CSProcess",
            "CancelledException", "Channel", "ChannelBuffer", "ChannelClosedException", "ChannelInput", "ChannelOutput",
            "Computation", "Connection", "ConnectionClient", "ConnectionServer", "DeadlockException", "Fiber",
            "FiberLocal", "ForwardingGuard", "Guard", "Guards", "IntProcess", "One2AnyChannel", "One2OneChannel",
            "One2OneConnection", "Parallel", "Pausable", "PoisonException", "Readiness", "Scheduler", "Select",
            "SharedAltingChannelInput", "SharedAltingChannelOutput", "SharedChannelInput", "SharedChannelOutput",
            "Task", "Timer", "ValueProcess", "Weft");

    @Test
    void theModuleExportsTheApiTheAbiAndManagementToAllAndTheRestToTheLibrariesBuiltOnWeft() {
        assertEquals(Set.of("dev.weft.csp", "dev.weft.csp.abi", "dev.weft.csp.management"), exportedToAll(), "exported to every module");
        assertEquals(Set.of("dev.weft.csp.internal", "dev.weft.csp.runtime", "dev.weft.csp.spi"), internal(),
                "internal packages");
        assertEquals(Set.of("dev.weft.csp.runtime", "dev.weft.csp.spi"), MODULE.exports().stream()
                .filter(ModuleDescriptor.Exports::isQualified).map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toSet()), "exported to the libraries built on Weft alone (the internals to none)");
    }

    @Test
    void theApiPackageHoldsTheApiAlone() throws Exception {
        Set<String> topLevel = new TreeSet<>();
        List<String> hidden = new ArrayList<>();
        for (Class<?> c : types("dev.weft.csp")) {
            if (c.isAnonymousClass() || c.isLocalClass() || c.isSynthetic()) {
                continue;
            }
            if (c.getEnclosingClass() == null) {
                topLevel.add(c.getSimpleName());
            }
            // A nested class that is not private is a class of the package's own, however it is named.
            int access = c.getModifiers();
            if (!Modifier.isPublic(access) && (c.getEnclosingClass() == null || !Modifier.isPrivate(access))) {
                hidden.add(c.getName());
            }
        }
        assertEquals(List.of(), hidden,
                "classes of the API package that are not API: move them to dev.weft.csp.internal");
        assertEquals(new TreeSet<>(API), topLevel, "the API package's types (a new type there must be DESIGN.md's)");
    }

    @Test
    void noInternalTypeAppearsInTheExportedSignatures() throws Exception {
        List<String> leaks = new ArrayList<>();
        for (String pkg : exportedToAll()) {
            for (Class<?> c : publicTypes(pkg)) {
                leaksOf(c, leaks);
            }
        }
        assertEquals(List.of(), leaks.stream().sorted().toList(), "internal types in the exported packages");
    }

    private static void leaksOf(Class<?> c, List<String> leaks) {
        Class<?> superclass = c.getSuperclass();
        if (superclass != null && internal(superclass) && !closedToOtherPackages(c)) {
            leaks.add(c.getName() + " extends " + superclass.getName());
        }
        for (Type t : c.getGenericInterfaces()) {
            check(leaks, c.getName() + " implements", t);
        }
        for (Method m : c.getMethods()) {
            if (internal(m.getDeclaringClass()) && !inheritedByTheFiberFromItsRuntimeBase(c, m)) {
                leaks.add(c.getName() + " inherits " + m);
            }
        }
        for (Field f : c.getFields()) {
            if (internal(f.getDeclaringClass())) {
                leaks.add(c.getName() + " inherits " + f);
            }
        }
        List<Member> members = new ArrayList<>();
        members.addAll(List.of(c.getDeclaredMethods()));
        members.addAll(List.of(c.getDeclaredConstructors()));
        members.addAll(List.of(c.getDeclaredFields()));
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

    /**
     * Whether no class of another package can extend {@code c}: then an internal superclass's protected members (a
     * fiber's state, a buffer's values) reach no one outside, and its public members are checked as inherited ones.
     */
    private static boolean closedToOtherPackages(Class<?> c) {
        if (Modifier.isFinal(c.getModifiers())) {
            return true;
        }
        for (Executable k : c.getDeclaredConstructors()) {
            if (Modifier.isPublic(k.getModifiers()) || Modifier.isProtected(k.getModifiers())) {
                return false;
            }
        }
        return true;
    }

    /**
     * A fiber is the scheduler's unit itself, so that it costs no handle object: it extends the runtime's
     * {@code Schedulable}, whose only public member, {@code lastCarrier()}, names no internal type.
     */
    private static boolean inheritedByTheFiberFromItsRuntimeBase(Class<?> c, Method m) {
        return c == Fiber.class && m.getName().equals("lastCarrier") && m.getParameterCount() == 0;
    }

    private static void check(List<String> leaks, String where, Type t) {
        for (String p : internal()) {
            if (t.getTypeName().contains(p + ".")) {
                leaks.add(where + ": " + t.getTypeName());
            }
        }
    }

    private static Set<String> exportedToAll() {
        return MODULE.exports().stream().filter(e -> !e.isQualified()).map(ModuleDescriptor.Exports::source)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    /** The module's packages that are not exported to every module. */
    private static Set<String> internal() {
        Set<String> internal = new TreeSet<>(packages());
        internal.removeAll(exportedToAll());
        return internal;
    }

    private static boolean internal(Class<?> c) {
        return internal().contains(c.getPackageName());
    }

    /** Every public type of the package, nested ones included, as compiled. */
    private static List<Class<?>> publicTypes(String pkg) throws IOException, ClassNotFoundException {
        List<Class<?>> types = new ArrayList<>();
        for (Class<?> c : types(pkg)) {
            if (isPubliclyReachable(c)) {
                types.add(c);
            }
        }
        return types;
    }

    /** Every type of the package, nested ones included, as compiled. */
    private static List<Class<?>> types(String pkg) throws IOException, ClassNotFoundException {
        List<Class<?>> types = new ArrayList<>();
        try (Stream<Path> files = Files.list(classes().resolve(pkg.replace('.', '/')))) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                String simple = f.getFileName().toString().replace(".class", "");
                types.add(Class.forName(pkg + "." + simple, false, Channel.class.getClassLoader()));
            }
        }
        return types;
    }

    /**
     * The module's packages, as compiled: every folder of classes (the descriptor javac writes names the exported
     * packages only).
     */
    private static Set<String> packages() {
        try (Stream<Path> files = Files.walk(classes())) {
            return files.filter(p -> p.toString().endsWith(".class") && !p.endsWith("module-info.class"))
                    .map(p -> classes().relativize(p.getParent()).toString().replace(File.separatorChar, '.'))
                    .collect(Collectors.toCollection(TreeSet::new));
        } catch (IOException e) {
            throw new IllegalStateException("cannot list the classes in " + classes(), e);
        }
    }

    private static boolean isPubliclyReachable(Class<?> c) {
        for (Class<?> o = c; o != null; o = o.getDeclaringClass()) {
            if (!Modifier.isPublic(o.getModifiers())) {
                return false;
            }
        }
        return !c.isAnonymousClass() && !c.isLocalClass();
    }

    private static Path classes() {
        try {
            return Path.of(Channel.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** csp-core's {@code module-info}, as compiled (the tests run on the class path, where it is not applied). */
    private static ModuleDescriptor descriptor() {
        try (InputStream in = Files.newInputStream(classes().resolve("module-info.class"))) {
            return ModuleDescriptor.read(in);
        } catch (IOException e) {
            throw new IllegalStateException("csp-core's module descriptor is missing from " + classes(), e);
        }
    }
}
