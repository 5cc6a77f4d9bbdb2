package dev.weft.net.codec;

/**
 * A value of a type this node's codec does not allow (known by its wire id only: the reader never takes a class
 * name from the bytes). Not a hostile peer, a configuration mismatch: the channel that carried it fails, its
 * link and the other channels go on, and the writer is told the id, which its own codec names.
 */
public final class TypeNotAllowedException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final int wireId;

    TypeNotAllowedException(int wireId) {
        super("a type that is not allowed on this node (wire id " + wireId + ")");
        this.wireId = wireId;
    }

    /** The type's wire id, which the writer's codec names ({@link KryoCodec#typeNamed}). */
    public int wireId() {
        return wireId;
    }

    /** {@code e} or the first of its causes that is a {@link TypeNotAllowedException}, or null. */
    static TypeNotAllowedException in(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof TypeNotAllowedException n) {
                return n;
            }
        }
        return null;
    }
}
