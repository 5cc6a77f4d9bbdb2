package dev.weft.net.codec;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Output;
import dev.weft.net.Codec;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The default codec: Kryo 5 with registration required, so that it builds only the types it allows.
 *
 * <p>Always allowed: boxed primitives, {@code String}, primitive arrays, {@link dev.weft.net.NetChannelLocation} and
 * {@link dev.weft.net.NodeAddress}. Allowed when given: records (built through their canonical constructor, which
 * validates), enums, plain classes with a no-argument constructor (built with it, then their fields set),
 * and collections and maps with one ({@code ArrayList}, {@code HashMap}, ...). What they hold must be allowed
 * too: a value is refused where any part of it is not. Refused when given: interfaces, abstract classes,
 * arrays of objects (send a list), and classes whose name the compiler or the run time makes up. Sorted
 * collections arrive in natural order: one with a comparator is refused at the writer.
 *
 * <p>Nodes agree on a type by its class name, so they can allow types in any order, or more types than
 * their peers; they need the same version of each class, since fields are sent untagged.
 *
 * <p>Reading never takes a class name from the bytes, holds every declared length to the bytes left, and
 * caps nesting, so hostile bytes end in an exception, not in a foreign object, a huge allocation or a
 * stack overflow. Thread-safe: Kryo instances and their buffers are pooled.
 *
 * <p>On JDK 24 and later, where the first use of {@code sun.misc.Unsafe}'s memory access prints a warning (JEP 498),
 * this class turns Kryo's use of it off by setting Kryo's own switch, the system property {@code kryo.unsafe}, to
 * {@code false}, unless it is set already: Kryo uses Unsafe only to reach the fields of plain classes, which it
 * then reaches through generated accessors (public classes) or reflection instead.
 */
public final class KryoCodec implements Codec {
    static {
        // Before any Kryo class initializes: Kryo reads the switch once, as its Util class loads.
        if (Runtime.version().feature() >= 24 && System.getProperty("kryo.unsafe") == null) {
            System.setProperty("kryo.unsafe", "false");
        }
    }

    private static final int POOLED = 32; // a power of two
    private static final int KEPT_OUTPUT = 64 * 1024;
    private static final int FIRST_OUTPUT = 256;

    private final KryoAllowList allowList;
    private final IdleSessions idle = new IdleSessions();

    /**
     * A codec that allows the built-in types and {@code allowed}.
     *
     * @throws IllegalArgumentException naming a type that cannot be allowed, and why, or two whose names
     *                                  hash to the same wire id
     */
    public KryoCodec(Class<?>... allowed) {
        allowList = new KryoAllowList(allowed);
        idle.put(new Session(allowList.newKryo())); // checks the types now, not at the first frame
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException naming the type that is not allowed, or saying why else the value
     *                                  cannot be sent (a comparator, nesting deeper than 256 levels: a cycle?)
     */
    @Override
    public byte[] encode(Object value) {
        Session session = obtain();
        try {
            session.kryo.writeClassAndObject(session.output, value);
            return session.output.toBytes();
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("cannot encode " + (value == null ? "null" : value.getClass().getName())
                    + ": " + innermostMessage(e), e);
        } finally {
            release(session);
        }
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if the bytes are malformed, name a type that is not allowed, or
     *                                  carry trailing bytes
     */
    @Override
    public Object decode(byte[] bytes) {
        Session session = obtain();
        try {
            session.input.start(bytes);
            Object value = session.kryo.readClassAndObject(session.input);
            int left = bytes.length - session.input.position();
            if (left != 0) {
                throw new KryoException(left + " bytes after the value");
            }
            return value;
        } catch (RuntimeException e) {
            TypeNotAllowedException notAllowed = TypeNotAllowedException.in(e);
            if (notAllowed != null) {
                throw notAllowed;
            }
            throw new IllegalArgumentException("refused " + (bytes == null ? "null" : bytes.length + " bytes")
                    + ": " + innermostMessage(e), e);
        } finally {
            release(session);
        }
    }

    /**
     * The name of the allowed type whose wire id is {@code id}, or null if this codec allows none with it: what a
     * writer's error names when the reading node refused a value by its wire id ({@link TypeNotAllowedException}).
     */
    public String typeNamed(int id) {
        return allowList.nameOf(id);
    }

    /**
     * Back to the pool, even after a failure: Kryo unwinds its depth and graph state in finally blocks, and
     * nothing else in a session outlives a call (no references, no generics, no class names).
     */
    private void release(Session session) {
        session.reset();
        idle.put(session);
    }

    private Session obtain() {
        Session s = idle.take();
        return s != null ? s : new Session(allowList.newKryo());
    }

    /** The root cause's first line says what went wrong; Kryo's wrappers and trace say where (the cause keeps them). */
    private static String innermostMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() != null ? root.getMessage() : root.toString();
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    /**
     * Up to {@value #POOLED} idle sessions, shared by every thread without a lock or an allocation: a row of
     * slots, each empty or holding one, that a thread scans from a place of its own. (Kryo's own pool queues
     * them in a {@code LinkedBlockingQueue}, whose lock and nodes were a tenth of a busy link's profile.) A
     * session put back into a full row is dropped; one taken from an empty row is made anew.
     */
    private static final class IdleSessions {
        private final AtomicReferenceArray<Session> slots = new AtomicReferenceArray<>(POOLED);

        Session take() {
            int start = start();
            for (int k = 0; k < POOLED; k++) {
                int i = (start + k) & (POOLED - 1);
                Session s = slots.get(i);
                if (s != null && slots.compareAndSet(i, s, null)) {
                    return s;
                }
            }
            return null;
        }

        void put(Session session) {
            int start = start();
            for (int k = 0; k < POOLED; k++) {
                int i = (start + k) & (POOLED - 1);
                if (slots.get(i) == null && slots.compareAndSet(i, null, session)) {
                    return;
                }
            }
        }

        /** Where the calling thread starts scanning: threads that start apart rarely meet. */
        private static int start() {
            return System.identityHashCode(Thread.currentThread());
        }
    }

    /** What one thread needs to encode or decode: a Kryo and its buffers, reused. */
    private static final class Session {
        final Kryo kryo;
        final KryoBoundedInput input = new KryoBoundedInput();
        final Output output = new Output(FIRST_OUTPUT, -1);

        Session(Kryo kryo) {
            this.kryo = kryo;
        }

        /** Ready for the next value, without keeping a large message or buffer alive in the pool. */
        void reset() {
            input.release();
            if (output.getBuffer().length > KEPT_OUTPUT) {
                output.setBuffer(new byte[FIRST_OUTPUT], -1);
            } else {
                output.reset();
            }
        }
    }
}
