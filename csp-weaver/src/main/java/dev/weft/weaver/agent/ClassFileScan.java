package dev.weft.weaver.agent;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the agent can tell from a class file's bytes, before it builds anything: whether the class may need
 * weaving at all. A class needs weaving only if it has a pausable method (which carries the annotation
 * {@code dev/weft/csp/Pausable}), calls Weft's API (whose classes are in {@code dev/weft/csp}), or makes a
 * lambda or method reference whose interface is pausable. The first two name {@code dev/weft/csp/} in the
 * constant pool. For the third, the interface of each lambda is read from the constant pool (the return type
 * of its {@code invokedynamic}); a pausable interface names {@code dev/weft/csp/} in its own class file (its
 * annotation, or a pausable interface it extends), which the class's loader is asked for, once per interface.
 * Most of what a JVM loads (the JDK, Groovy, Clojure, a web framework) is decided here without the engine.
 */
final class ClassFileScan {
    private static final byte[] WEFT = "dev/weft/csp/".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] LAMBDAS = "java/lang/invoke/LambdaMetafactory".getBytes(StandardCharsets.US_ASCII);
    private static final String[] NEVER_PAUSABLE = {"java/", "javax/", "jdk/", "sun/"};
    /** Whether an interface may be pausable, by loader and name. */
    private static final Map<ClassLoader, Map<String, Boolean>> INTERFACES =
            Collections.synchronizedMap(new WeakHashMap<>());

    private ClassFileScan() {
    }

    /** Whether the class file may need weaving (see above); false means it certainly does not. */
    static boolean mayNeedWeaving(byte[] classFile, ClassLoader loader) {
        if (classFile == null) {
            return false;
        }
        if (contains(classFile, WEFT)) {
            return true;
        }
        if (!contains(classFile, LAMBDAS)) {
            return false;
        }
        List<String> interfaces;
        try {
            interfaces = lambdaInterfaces(classFile);
        } catch (RuntimeException malformed) {
            return true; // the engine will say what is wrong
        }
        for (String i : interfaces) {
            if (mayBePausable(i, loader)) {
                return true;
            }
        }
        return false;
    }

    private static boolean mayBePausable(String iface, ClassLoader loader) {
        for (String prefix : NEVER_PAUSABLE) {
            if (iface.startsWith(prefix)) {
                return false;
            }
        }
        if (loader == null) {
            return true;
        }
        Map<String, Boolean> known = INTERFACES.computeIfAbsent(loader, l -> new ConcurrentHashMap<>());
        Boolean pausable = known.get(iface);
        if (pausable == null) { // not computeIfAbsent: reading the resource may load classes, which come back here
            pausable = namesWeft(loader, iface);
            known.put(iface, pausable);
        }
        return pausable;
    }

    /** Whether the class file of {@code name} names Weft; true if it cannot be read (the engine decides). */
    private static boolean namesWeft(ClassLoader loader, String name) {
        try (InputStream in = loader.getResourceAsStream(name + ".class")) {
            return in == null || contains(in.readAllBytes(), WEFT);
        } catch (IOException e) {
            return true;
        }
    }

    /** The interfaces of the class's {@code invokedynamic} call sites (their descriptors' return types). */
    static List<String> lambdaInterfaces(byte[] c) {
        int count = u2(c, 8);
        int[] utf8At = new int[count];
        int[] natDescriptor = new int[count];
        List<Integer> indyNats = new ArrayList<>();
        int p = 10;
        for (int i = 1; i < count; i++) {
            int tag = c[p] & 0xff;
            switch (tag) {
                case 1: // Utf8
                    utf8At[i] = p;
                    p += 3 + u2(c, p + 1);
                    break;
                case 3: case 4: // Integer, Float
                    p += 5;
                    break;
                case 5: case 6: // Long, Double: two slots
                    p += 9;
                    i++;
                    break;
                case 7: case 8: case 16: case 19: case 20: // Class, String, MethodType, Module, Package
                    p += 3;
                    break;
                case 12: // NameAndType
                    natDescriptor[i] = u2(c, p + 3);
                    p += 5;
                    break;
                case 15: // MethodHandle
                    p += 4;
                    break;
                case 18: // InvokeDynamic
                    indyNats.add(u2(c, p + 3));
                    p += 5;
                    break;
                case 9: case 10: case 11: case 17: // Field, Method, InterfaceMethod refs, Dynamic
                    p += 5;
                    break;
                default:
                    throw new IllegalArgumentException("constant pool tag " + tag);
            }
        }
        List<String> out = new ArrayList<>();
        for (int nat : indyNats) {
            String d = utf8(c, utf8At[natDescriptor[nat]]);
            int ret = d.indexOf(')') + 1;
            if (d.charAt(ret) == 'L') {
                out.add(d.substring(ret + 1, d.length() - 1));
            }
        }
        return out;
    }

    private static int u2(byte[] c, int at) {
        return ((c[at] & 0xff) << 8) | (c[at + 1] & 0xff);
    }

    /** The (modified UTF-8, here ASCII for the names that matter) string of the Utf8 entry at {@code at}. */
    private static String utf8(byte[] c, int at) {
        return new String(c, at + 3, u2(c, at + 1), StandardCharsets.UTF_8);
    }

    static boolean contains(byte[] bytes, byte[] part) {
        byte first = part[0];
        for (int i = 0, last = bytes.length - part.length; i <= last; i++) {
            if (bytes[i] != first) {
                continue;
            }
            int j = 1;
            while (j < part.length && bytes[i + j] == part[j]) {
                j++;
            }
            if (j == part.length) {
                return true;
            }
        }
        return false;
    }
}
