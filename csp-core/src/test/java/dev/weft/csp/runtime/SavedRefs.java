package dev.weft.csp.runtime;

import java.lang.reflect.Field;

/** Test access to a continuation's saved-reference array, which holds its pause sites from the end. */
public final class SavedRefs {
    private SavedRefs() {
    }

    /** The array itself (not a copy): a test may read its length or corrupt an entry. */
    public static Object[] of(Continuation c) {
        try {
            Field refs = Continuation.class.getDeclaredField("refs");
            refs.setAccessible(true);
            return (Object[]) refs.get(c);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
