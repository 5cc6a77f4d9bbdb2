package dev.weft.net.codec;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.BooleanArraySerializer;
import com.esotericsoftware.kryo.serializers.ExternalizableSerializer;
import com.esotericsoftware.kryo.serializers.FieldSerializer;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NodeAddress;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The types a {@link KryoCodec} allows, and the Kryo that builds those and nothing else: registration
 * required, class names refused on the wire, no references (a back-reference is an object of any type), and
 * nesting capped so that a hostile message runs out of depth before the reader runs out of stack.
 *
 * <p>Wire ids: Kryo's own for the primitives (and so their boxes) and {@code String}, 0 to 8; fixed ids from
 * 16 for the other built-in types; and for each given type a hash of its class name, so that an id depends
 * neither on the order of {@code allow} nor on what else a node allows.
 */
final class KryoAllowList {
    /** How deep a value may nest: a record in a list in a record is three levels. */
    static final int MAX_DEPTH = 256;
    private static final int FIRST_BUILT_IN_ID = 16;
    /** Allowed always, besides Kryo's own, with ids from 16 in this order: wire format, so append only. */
    private static final List<Class<?>> BUILT_IN = List.of(byte[].class, short[].class, int[].class,
            long[].class, float[].class, double[].class, char[].class, boolean[].class, NodeAddress.class,
            NetChannelLocation.class);
    /** Given types get ids 2^26 to 2^27 - 1, four bytes on the wire, far above any built-in. */
    private static final int FIRST_HASHED_ID = 1 << 26;

    private final Class<?>[] given;

    /**
     * The built-in types and {@code given}. Nothing is checked until {@link #newKryo()}.
     *
     * @throws IllegalArgumentException if {@code given} is null
     */
    KryoAllowList(Class<?>... given) {
        if (given == null) {
            throw new IllegalArgumentException("allow was given a null array of types");
        }
        this.given = given.clone();
    }

    /**
     * The wire id of a given class: the top 26 bits of the 32-bit FNV-1a hash of its name, in the hashed
     * range. A fixed function of the name, so the same in every JVM, and better spread than
     * {@link String#hashCode()} over names that differ in a character or two.
     */
    static int idOf(String className) {
        int hash = 0x811c9dc5;
        for (int i = 0; i < className.length(); i++) {
            hash = (hash ^ className.charAt(i)) * 0x01000193;
        }
        return FIRST_HASHED_ID | hash >>> 6;
    }

    /**
     * A new Kryo that writes and reads the allowed types only. Kryo is not thread-safe: one per thread at a time.
     *
     * @throws IllegalArgumentException naming a given type that cannot be allowed, and why
     */
    Kryo newKryo() {
        Kryo kryo = new Kryo(new IdsOnly(), null) {
            @Override
            protected String unregisteredClassMessage(Class type) {
                return type.getName() + " is not allowed: pass it to allow(...) on the Node.Builder of every node"
                        + " that sends or receives it";
            }
        };
        kryo.setRegistrationRequired(true);
        kryo.setReferences(false);
        kryo.setOptimizedGenerics(false); // no generics stack to outlive a call; our collections send classes anyway
        kryo.setMaxDepth(MAX_DEPTH);
        for (int i = 0; i < BUILT_IN.size(); i++) {
            Class<?> type = BUILT_IN.get(i);
            kryo.register(type, type == boolean[].class ? new BoundedBooleans() : kryo.getDefaultSerializer(type),
                    FIRST_BUILT_IN_ID + i);
        }
        for (Class<?> type : given) {
            allow(kryo, type);
        }
        return kryo;
    }

    private static void allow(Kryo kryo, Class<?> type) {
        if (type == null) {
            throw new IllegalArgumentException("allow was given null among its types");
        }
        if (kryo.getClassResolver().getRegistration(type) != null) {
            return; // built in, or given twice
        }
        String refusal = refusal(type);
        if (refusal != null) {
            throw new IllegalArgumentException("cannot allow " + type.getName() + ": " + refusal);
        }
        int id = idOf(type.getName());
        Registration taken = kryo.getRegistration(id);
        if (taken != null) {
            throw new IllegalArgumentException("cannot allow both " + taken.getType().getName() + " and "
                    + type.getName() + ": their names hash to the same wire id " + id + "; rename one");
        }
        Serializer<?> serializer;
        try {
            serializer = Collection.class.isAssignableFrom(type) ? new KryoCollectionSerializer()
                    : Map.class.isAssignableFrom(type) ? new KryoMapSerializer()
                    : kryo.getDefaultSerializer(type);
        } catch (RuntimeException e) { // e.g. fields of a module's class that is not opened to Kryo
            throw new IllegalArgumentException("cannot allow " + type.getName() + ": " + e.getMessage(), e);
        }
        if (serializer instanceof JavaSerializer || serializer instanceof ExternalizableSerializer) {
            throw new IllegalArgumentException("cannot allow " + type.getName()
                    + ": its serializer is Java serialization, which the codec never runs on network bytes");
        }
        boolean builtByConstructor = serializer instanceof FieldSerializer
                || serializer instanceof KryoCollectionSerializer || serializer instanceof KryoMapSerializer;
        if (builtByConstructor && !hasNoArgConstructor(type)) {
            throw new IllegalArgumentException("cannot allow " + type.getName() + ": a plain class, collection or"
                    + " map needs a no-argument constructor (Kryo builds it so, then fills it); use a record");
        }
        kryo.register(type, serializer, id);
    }

    /** Why {@code type} makes no sense to allow, or null if it does. */
    private static String refusal(Class<?> type) {
        if (type.isPrimitive()) {
            return "void carries no value";
        }
        if (type.isArray()) {
            return "arrays of objects are not allowed; send a list (allow ArrayList)";
        }
        if (type.isInterface()) {
            return "an interface; allow the classes that implement it";
        }
        if (Modifier.isAbstract(type.getModifiers()) && !type.isEnum()) { // an enum with bodies is abstract
            return "abstract; allow its concrete subclasses";
        }
        if (type.isAnonymousClass() || type.isLocalClass() || type.isHidden() || type.isSynthetic()
                || Proxy.isProxyClass(type)) {
            return "its name is made by the compiler or at run time, so it is no stable name on the wire";
        }
        if (type.isMemberClass() && !Modifier.isStatic(type.getModifiers())) {
            return "an inner class needs an instance of its outer class; make it static";
        }
        return null;
    }

    private static boolean hasNoArgConstructor(Class<?> type) {
        try {
            type.getDeclaredConstructor();
            return true;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * Resolves ids only: a class name on the wire is refused before any class is looked up, let alone loaded.
     * An unknown id in the range of given types is a type this node does not allow (another node does: a
     * mismatch of configurations); any other unknown id is garbage.
     */
    private static final class IdsOnly extends DefaultClassResolver {
        @Override
        protected Registration readName(Input input) {
            throw new KryoException("a class name where a registered id belongs");
        }

        @Override
        public Registration readClass(Input input) {
            int id = input.readVarInt(true); // Kryo's encoding: 0 for null, 1 for a name, else the id + 2
            if (id == Kryo.NULL) {
                return null;
            }
            if (id == NAME + 2) {
                return readName(input);
            }
            Registration r = getRegistration(id - 2);
            if (r == null) {
                throw isGivenTypeId(id - 2) ? new TypeNotAllowedException(id - 2)
                        : new KryoException("an unknown class id " + (id - 2));
            }
            return r;
        }
    }

    private static boolean isGivenTypeId(int id) {
        return id >= FIRST_HASHED_ID && id < 2 * FIRST_HASHED_ID;
    }

    /** The name of the type with wire id {@code id} in this list, or null if none has it. */
    String nameOf(int id) {
        Registration r = newKryo().getRegistration(id);
        return r == null ? null : r.getType().getName();
    }

    /** Kryo's boolean[] serializer allocates the declared length itself; this one reads through the input's check. */
    private static final class BoundedBooleans extends BooleanArraySerializer {
        @Override
        public boolean[] read(Kryo kryo, Input input, Class type) {
            int length = input.readVarInt(true); // 0 for null, else the length + 1
            return length == Kryo.NULL ? null : input.readBooleans(length - 1);
        }
    }
}
