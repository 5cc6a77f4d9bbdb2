package dev.weft.net.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import com.esotericsoftware.kryo.io.Output;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NodeAddress;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Bytes from a peer that is broken or hostile: the codec only throws, and builds nothing it does not allow. */
class KryoCodecHostileBytesTest {
    record Point(int x, long y, String label) {}

    record Holder(Object payload) {}

    record Named(String name) {}

    record Empty() {}

    enum Color { RED, GREEN, BLUE }

    /** Allowed by the writer only: the reader must never build one. */
    record Forbidden(int n, String s) {
        static final AtomicInteger BUILT = new AtomicInteger();

        Forbidden {
            BUILT.incrementAndGet();
        }
    }

    /** Likewise, as a plain class built through its constructor. */
    static final class ForbiddenPlain {
        static final AtomicInteger BUILT = new AtomicInteger();
        Object payload;

        ForbiddenPlain() {
            BUILT.incrementAndGet();
        }
    }

    private static final Class<?>[] READER_ALLOWS = {Point.class, Holder.class, Named.class, Empty.class,
            Color.class, ArrayList.class, HashMap.class};
    private static final Set<Class<?>> BUILT_IN = Set.of(Integer.class, Long.class, Short.class, Byte.class,
            Character.class, Boolean.class, Float.class, Double.class, String.class, byte[].class, short[].class,
            int[].class, long[].class, float[].class, double[].class, char[].class, boolean[].class,
            NodeAddress.class, NetChannelLocation.class);

    private final KryoCodec reader = new KryoCodec(READER_ALLOWS);
    private final List<byte[]> seeds = seeds();
    private final int forbiddenBefore = Forbidden.BUILT.get(); // after the seeds, which build some
    private final int plainBefore = ForbiddenPlain.BUILT.get();

    /** Valid messages of every kind, some holding types the reader does not allow. */
    private static List<byte[]> seeds() {
        KryoCodec writer = new KryoCodec(Point.class, Holder.class, Named.class, Empty.class, Color.class,
                ArrayList.class, HashMap.class, Forbidden.class, ForbiddenPlain.class);
        NodeAddress node = new NodeAddress("10.0.0.7", 9000);
        ForbiddenPlain plain = new ForbiddenPlain();
        plain.payload = new Point(1, 2, "in a forbidden one");
        List<Object> values = List.of(7, -1L, "hello", "ünïcødé", new byte[] {1, 2, 3}, new int[] {1, -1, 1 << 30},
                new long[] {Long.MAX_VALUE}, new double[] {0.5}, new boolean[] {true, false}, new char[] {'z'},
                node, new NetChannelLocation(node, 77), new Point(3, 4, "label"), new Holder(new Point(1, 1, "")),
                new Holder(new Forbidden(5, "f")), new Forbidden(6, "g"), plain, new Holder(plain), new Named("n"),
                new ArrayList<>(List.of(new Point(9, 9, "nine"), Color.BLUE, new Empty(), new Forbidden(7, "h"))),
                new HashMap<>(Map.of("k", new Holder(new Forbidden(8, "i")), 1, new ArrayList<>(List.of(1, 2))))
        );
        List<byte[]> seeds = new ArrayList<>();
        for (Object value : values) {
            seeds.add(writer.encode(value));
        }
        return seeds;
    }

    /** Decodes, and fails the test on anything but an allowed value or an IllegalArgumentException. */
    private Object decodeOrRefuse(byte[] bytes) {
        try {
            Object value = reader.decode(bytes);
            boolean allowed = value == null || BUILT_IN.contains(value.getClass())
                    || Arrays.asList(READER_ALLOWS).contains(value.getClass());
            if (!allowed) {
                fail("built a " + value.getClass().getName() + " from " + Arrays.toString(bytes));
            }
            return value;
        } catch (IllegalArgumentException refused) {
            return refused;
        } catch (Throwable t) {
            throw new AssertionError("decode threw " + t + " on " + Arrays.toString(bytes), t);
        }
    }

    @AfterEach
    void nothingForbiddenWasBuilt() {
        assertEquals(forbiddenBefore, Forbidden.BUILT.get(), "the reader built a Forbidden");
        assertEquals(plainBefore, ForbiddenPlain.BUILT.get(), "the reader built a ForbiddenPlain");
    }

    @Test
    @Timeout(60)
    void randomBytesOnlyThrowOrGiveAllowedValues() {
        Random random = new Random(1);
        for (int i = 0; i < 20_000; i++) {
            byte[] bytes = new byte[random.nextInt(48)];
            random.nextBytes(bytes);
            if (i % 2 == 0 && bytes.length > 0) { // start like a real message, so as to get past the class id
                byte[] seed = seeds.get(random.nextInt(seeds.size()));
                System.arraycopy(seed, 0, bytes, 0, Math.min(seed.length, 1 + random.nextInt(bytes.length)));
            }
            decodeOrRefuse(bytes);
        }
    }

    @Test
    @Timeout(60)
    void everyTruncationOfAValidMessageIsRefused() {
        int truncations = 0;
        for (byte[] seed : seeds) {
            for (int length = 0; length < seed.length; length++) {
                byte[] prefix = Arrays.copyOf(seed, length);
                assertTrue(decodeOrRefuse(prefix) instanceof IllegalArgumentException, "a prefix decoded");
                truncations++;
            }
        }
        assertTrue(truncations > 200, "only " + truncations);
    }

    @Test
    @Timeout(60)
    void mutatedMessagesOnlyThrowOrGiveAllowedValues() {
        Random random = new Random(2);
        int refused = 0;
        for (int i = 0; i < 30_000; i++) {
            byte[] bytes = seeds.get(random.nextInt(seeds.size())).clone();
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                int at = random.nextInt(bytes.length);
                bytes[at] = random.nextBoolean() ? (byte) (bytes[at] ^ 1 << random.nextInt(8))
                        : (byte) random.nextInt();
            }
            if (decodeOrRefuse(bytes) instanceof IllegalArgumentException) {
                refused++;
            }
        }
        assertTrue(refused > 1000 && refused < 30_000, "refused " + refused + ": mutations must both pass and fail");
    }

    @Test
    @Timeout(10)
    void trailingBytesAreRefused() {
        byte[] message = reader.encode(new Point(1, 2, "x"));
        byte[] longer = Arrays.copyOf(message, message.length + 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> reader.decode(longer));
        assertTrue(e.getMessage().contains("1 bytes after the value"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> reader.decode(null));
    }

    @Test
    @Timeout(10)
    void aClassNameOnTheWireIsRefusedWithoutLookingItUp() {
        Output out = new Output(64, -1);
        out.writeVarInt(1, true); // Kryo's marker: a class name follows
        out.writeVarInt(0, true);
        out.writeString(Holder.class.getName()); // even an allowed class: ids only
        out.writeByte(0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> reader.decode(out.toBytes()));
        assertTrue(e.getMessage().contains("class name"), e.getMessage());
    }

    /** A declared count far beyond the bytes that follow is refused before anything of that size is allocated. */
    @Test
    @Timeout(30)
    void hugeDeclaredLengthsAllocateNothing() {
        Map<String, byte[]> headers = new java.util.LinkedHashMap<>(); // each message up to its count, exclusive
        for (Object empty : List.of(new byte[0], new short[0], new int[0], new long[0], new float[0], new double[0],
                new char[0], new boolean[0], new ArrayList<>(), new HashMap<>())) {
            byte[] message = reader.encode(empty); // class id, then a count of 0 (1 for arrays: 0 is null)
            headers.put(empty.getClass().getSimpleName(), Arrays.copyOf(message, message.length - 1));
        }
        byte[] nullName = reader.encode(new Named(null)); // a string's header is its last byte here
        headers.put("String in a record", Arrays.copyOf(nullName, nullName.length - 1));
        headers.put("String", Arrays.copyOf(reader.encode("é"), 1));
        long allowed = 1 << 20;
        for (Map.Entry<String, byte[]> header : headers.entrySet()) {
            boolean string = header.getKey().startsWith("String");
            for (int count : new int[] {100_000_000, 1 << 30, Integer.MAX_VALUE, -5}) {
                Output out = new Output(64, -1);
                out.writeBytes(header.getValue());
                if (string) {
                    out.writeVarIntFlag(true, count, true); // the flag says UTF-8, with its char count + 1
                } else {
                    out.writeVarInt(count, true);
                }
                out.writeBytes(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
                byte[] bytes = out.toBytes();
                reader.decode(reader.encode(1)); // a session in the pool, so as to measure the decode alone
                long before = allocatedBytes();
                Object result = decodeOrRefuse(bytes);
                long spent = allocatedBytes() - before;
                assertTrue(result instanceof IllegalArgumentException, header.getKey() + " of " + count + " decoded");
                assertTrue(spent < allowed, header.getKey() + " of " + count + " allocated " + spent + " bytes");
            }
        }
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }

    @Test
    @Timeout(10)
    void everyElementOfACollectionCostsAByteSoNoneComesFree() {
        ArrayList<Object> nulls = new ArrayList<>();
        ArrayList<Object> empties = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            nulls.add(null);
            empties.add(new Empty());
        }
        byte[] nullsBytes = reader.encode(nulls);
        byte[] emptiesBytes = reader.encode(empties);
        assertTrue(nullsBytes.length >= 10_000, "10,000 nulls in " + nullsBytes.length + " bytes");
        assertTrue(emptiesBytes.length >= 10_000, "10,000 empty records in " + emptiesBytes.length + " bytes");
        assertEquals(nulls, reader.decode(nullsBytes));
        assertEquals(empties, reader.decode(emptiesBytes));
    }

    @Test
    @Timeout(30)
    void deepNestingIsRefusedInsteadOfOverflowingTheStack() throws Exception {
        for (Object empty : List.of(new ArrayList<>(), new Holder(null))) {
            byte[] message = reader.encode(empty);
            byte[] level = Arrays.copyOf(message, message.length - 1); // a list of one, or a holder, of what follows
            if (empty instanceof ArrayList) {
                level = Arrays.copyOf(level, level.length + 1);
                level[level.length - 1] = 1;
            }
            Output out = new Output(1024, -1);
            for (int i = 0; i < 100_000; i++) {
                out.writeBytes(level);
            }
            out.writeByte(0); // null at the bottom
            Object result = decodeOrRefuse(out.toBytes());
            assertTrue(result instanceof IllegalArgumentException
                    && ((IllegalArgumentException) result).getMessage().contains("depth"), String.valueOf(result));
        }
        // nesting up to the cap decodes even on a small stack
        Object nested = null;
        for (int i = 0; i < KryoAllowList.MAX_DEPTH - 1; i++) {
            nested = new Holder(nested);
        }
        byte[] deep = reader.encode(nested);
        AtomicReference<Object> decoded = new AtomicReference<>();
        Thread small = new Thread(null, () -> decoded.set(decodeOrRefuse(deep)), "small stack", 256 * 1024);
        small.start();
        small.join();
        assertEquals(nested, decoded.get());
    }
}
