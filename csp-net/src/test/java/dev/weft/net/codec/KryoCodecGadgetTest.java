package dev.weft.net.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A gadget (a class that does something when it is initialised, built or deserialised) is never touched by
 * decode, whatever bytes name it. The payloads are made from a copy of the gadget in a class loader of its
 * own, so that making them leaves this loader's gadget untouched; they are shown live by decoding each one
 * there, where the copy's side effects fire.
 */
class KryoCodecGadgetTest {
    /** What gadgets did, kept apart from them: reading it does not initialise a gadget. */
    static final class Effects {
        static final AtomicInteger INITIALISED = new AtomicInteger();
        static final AtomicInteger CONSTRUCTED = new AtomicInteger();
        static final AtomicInteger DESERIALISED = new AtomicInteger();
    }

    /** Does something in every place a deserializer may run code. */
    static final class Gadget implements Serializable {
        private static final long serialVersionUID = 1L;

        static {
            Effects.INITIALISED.incrementAndGet();
        }

        String command = "format c:";

        Gadget() {
            Effects.CONSTRUCTED.incrementAndGet();
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            Effects.DESERIALISED.incrementAndGet();
        }

        private Object readResolve() {
            Effects.DESERIALISED.incrementAndGet();
            return this;
        }
    }

    record Holder(Object payload) {}

    @Test
    @Timeout(30)
    void noBytesMakeDecodeInitialiseBuildOrDeserialiseAGadget() throws Exception {
        URL[] testClasses = {KryoCodecGadgetTest.class.getProtectionDomain().getCodeSource().getLocation()};
        try (URLClassLoader elsewhere = new URLClassLoader(testClasses, ClassLoader.getPlatformClassLoader())) {
            Class<?> gadgetType = Class.forName(Gadget.class.getName(), true, elsewhere);
            Object gadget = newInstance(gadgetType);
            Map<String, byte[]> payloads = payloads(gadgetType, gadget);
            assertPayloadsAreLive(payloads, gadgetType, elsewhere);

            List<KryoCodec> victims = List.of(new KryoCodec(), new KryoCodec(Holder.class),
                    new KryoCodec(Holder.class, ArrayList.class, HashMap.class));
            for (KryoCodec victim : victims) {
                payloads.forEach((name, bytes) ->
                        assertThrows(IllegalArgumentException.class, () -> victim.decode(bytes), name));
            }
        }
        assertEquals(0, Effects.INITIALISED.get(), "the gadget's static initialiser ran");
        assertEquals(0, Effects.CONSTRUCTED.get(), "a gadget was built");
        assertEquals(0, Effects.DESERIALISED.get(), "a gadget was deserialised");
    }

    /** The gadget as each kind of attacker would send it. */
    private static Map<String, byte[]> payloads(Class<?> gadgetType, Object gadget) throws IOException {
        Map<String, byte[]> payloads = new LinkedHashMap<>();
        // exactly what a victim that allowed the gadget would read: same codec, same name, same id
        payloads.put("by the id a victim would give it", new KryoCodec(gadgetType).encode(gadget));
        payloads.put("inside an allowed record", new KryoCodec(Holder.class, gadgetType).encode(new Holder(gadget)));
        Kryo byName = new Kryo();
        byName.setRegistrationRequired(false);
        Output output = new Output(256, -1);
        byName.writeClassAndObject(output, gadget);
        payloads.put("by class name", output.toBytes());
        ByteArrayOutputStream java = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(java)) {
            out.writeObject(gadget);
        }
        payloads.put("by Java serialization", java.toByteArray());
        return payloads;
    }

    /** Each payload, read where the gadget copy lives by a reader that accepts it, does fire the copy. */
    private static void assertPayloadsAreLive(Map<String, byte[]> payloads, Class<?> gadgetType, ClassLoader elsewhere)
            throws Exception {
        AtomicInteger constructed = effect(elsewhere, "CONSTRUCTED");
        AtomicInteger deserialised = effect(elsewhere, "DESERIALISED");
        assertEquals(1, constructed.get(), "the copy was built once, to make the payloads");

        Object byId = new KryoCodec(gadgetType).decode(payloads.get("by the id a victim would give it"));
        assertEquals(gadgetType, byId.getClass());
        KryoCodec allowing = new KryoCodec(gadgetType, Holder.class);
        Holder holder = (Holder) allowing.decode(payloads.get("inside an allowed record"));
        assertEquals(gadgetType, holder.payload().getClass());
        Kryo byName = new Kryo();
        byName.setRegistrationRequired(false);
        byName.setClassLoader(elsewhere);
        assertEquals(gadgetType, byName.readClassAndObject(new Input(payloads.get("by class name"))).getClass());
        assertEquals(1 + 3, constructed.get(), "each of the three Kryo payloads builds the copy");

        ByteArrayInputStream java = new ByteArrayInputStream(payloads.get("by Java serialization"));
        try (ObjectInputStream in = new ObjectInputStream(java) {
            @Override
            protected Class<?> resolveClass(ObjectStreamClass desc) throws ClassNotFoundException {
                return Class.forName(desc.getName(), false, elsewhere);
            }
        }) {
            assertEquals(gadgetType, in.readObject().getClass());
        }
        assertTrue(deserialised.get() >= 1, "the Java payload runs readObject and readResolve");
    }

    private static Object newInstance(Class<?> type) throws ReflectiveOperationException {
        Constructor<?> constructor = type.getDeclaredConstructor();
        constructor.setAccessible(true);
        return constructor.newInstance();
    }

    private static AtomicInteger effect(ClassLoader loader, String name) throws ReflectiveOperationException {
        Field field = Class.forName(Effects.class.getName(), true, loader).getDeclaredField(name);
        field.setAccessible(true);
        return (AtomicInteger) field.get(null);
    }
}
