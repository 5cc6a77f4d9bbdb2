package dev.weft.csp.abi;


import java.lang.reflect.Field;

/** Test access to a continuation's saved-reference array, which holds its pause sites from the end. */
public final class SavedRefs {
    private SavedRefs() {
    }

    /** The array itself (not a copy): a test may read its length or corrupt an entry. */
    public static Object[] of(Continuation c) {
        return (Object[]) field(c, "refs");
    }

    /** The saved primitives' array itself, its top in its last element. */
    public static long[] prims(Continuation c) {
        return (long[]) field(c, "prims");
    }

    private static Object field(Continuation c, String name) {
        try {
            Field f = Continuation.class.getDeclaredField(name);
            f.setAccessible(true);
            return f.get(c);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
