package dev.weft.net.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NodeAddress;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class KryoCodecTest {
    record Point(int x, long y, String label) {}

    record Segment(Point from, Point to) {}

    record Holder(Object payload) {}

    record ArrayFields(byte[] bytes, int[] ints, double[] doubles, boolean[] flags) {}

    record Tagged(Color color, List<Object> items, Map<Object, Object> index) {}

    /** Counts its instances, to show a reader that refuses a type builds none. */
    record Audited(int n) {
        static final AtomicInteger BUILT = new AtomicInteger();

        Audited {
            BUILT.incrementAndGet();
        }
    }

    enum Color {
        RED,
        GREEN {
            @Override
            public String toString() {
                return "green, with a body";
            }
        },
        BLUE
    }

    enum Op {
        PLUS {
            @Override
            int apply(int a, int b) {
                return a + b;
            }
        };

        abstract int apply(int a, int b);
    }

    /** A plain class: built with its no-argument constructor, then its fields set. */
    static final class Account {
        String owner;
        long balance;
        Object note;
        ArrayList<Object> history = new ArrayList<>();

        Account() {}

        Account(String owner, long balance, Object note) {
            this.owner = owner;
            this.balance = balance;
            this.note = note;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Account a && Objects.equals(owner, a.owner) && balance == a.balance
                    && Objects.equals(note, a.note) && history.equals(a.history);
        }

        @Override
        public int hashCode() {
            return Objects.hash(owner, balance);
        }
    }

    static final class Cell {
        Object next;

        Cell() {}
    }

    class Inner {
        Inner() {}
    }

    static final class NoDefaultConstructor {
        final int n;

        NoDefaultConstructor(int n) {
            this.n = n;
        }
    }

    private static final NodeAddress HOST = new NodeAddress("node-a.example", 7040);

    private static Object roundTrip(KryoCodec codec, Object value) {
        return codec.decode(codec.encode(value));
    }

    @Test
    @Timeout(10)
    void builtInKindsRoundTripWithoutAllowingAnything() {
        KryoCodec codec = new KryoCodec();
        List<Object> values = List.of(42, -7L, (short) 3, (byte) -1, 'x', true, 1.5f, -2.25, "",
                "ascii", "ünïcødé ✓ 𝄞", "x".repeat(10_000), Integer.MIN_VALUE, Long.MAX_VALUE, Double.NaN,
                HOST, new NetChannelLocation(HOST, 99L));
        for (Object value : values) {
            Object back = roundTrip(codec, value);
            assertEquals(value, back);
            assertEquals(value.getClass(), back.getClass());
        }
        assertNull(roundTrip(codec, null));
    }

    @Test
    @Timeout(10)
    void primitiveArraysRoundTrip() {
        KryoCodec codec = new KryoCodec();
        List<Object> arrays = List.of(new byte[] {1, -2, 127}, new byte[0], new short[] {-1, 300},
                new int[] {0, -1, Integer.MAX_VALUE}, new long[] {Long.MIN_VALUE, 5}, new float[] {0.5f, -1e9f},
                new double[] {Math.PI, -0.0}, new char[] {'a', 'é', '\uffff'}, new boolean[] {true, false, true});
        for (Object array : arrays) {
            Object back = roundTrip(codec, array);
            assertTrue(Objects.deepEquals(array, back), array.getClass().getSimpleName());
        }
    }

    @Test
    @Timeout(10)
    void encodingIsExactLength() {
        KryoCodec codec = new KryoCodec();
        assertEquals(1 + 2 + 1024, codec.encode(new byte[1024]).length, "class id, length, bytes");
        assertEquals(2, codec.encode(0).length, "class id, varint");
        assertEquals(1, codec.encode(null).length);
    }

    @Test
    @Timeout(10)
    void recordsPlainClassesEnumsAndAllowedCollectionsRoundTrip() {
        KryoCodec codec = new KryoCodec(Point.class, Segment.class, Holder.class, ArrayFields.class, Tagged.class,
                Color.class, Op.class, Account.class, ArrayList.class, LinkedList.class, HashMap.class,
                HashSet.class, TreeMap.class, TreeSet.class);
        Point p = new Point(1, 2L, "p");
        assertEquals(p, roundTrip(codec, p));
        assertEquals(new Point(0, 0, null), roundTrip(codec, new Point(0, 0, null)));
        assertEquals(new Segment(p, new Point(3, 4, "q")), roundTrip(codec, new Segment(p, new Point(3, 4, "q"))));
        Holder location = new Holder(new NetChannelLocation(HOST, 5));
        assertEquals(location, roundTrip(codec, location));
        assertEquals(new Holder(null), roundTrip(codec, new Holder(null)));
        for (Color c : Color.values()) {
            assertEquals(c, roundTrip(codec, c));
        }
        assertEquals(3, ((Op) roundTrip(codec, Op.PLUS)).apply(1, 2));

        ArrayFields arrays = (ArrayFields) roundTrip(codec,
                new ArrayFields(new byte[] {9}, new int[] {1, 2}, new double[] {0.5}, new boolean[] {true}));
        assertArrayEquals(new byte[] {9}, arrays.bytes());
        assertArrayEquals(new int[] {1, 2}, arrays.ints());
        assertArrayEquals(new double[] {0.5}, arrays.doubles());
        assertArrayEquals(new boolean[] {true}, arrays.flags());

        ArrayList<Object> items = new ArrayList<>(
                Arrays.asList(p, null, "s", 3, Color.GREEN, new LinkedList<>(List.of(1, 2))));
        HashMap<Object, Object> index = new HashMap<>(
                Map.of("a", p, 1, new HashSet<>(Set.of("x", "y")), Color.RED, new TreeMap<>(Map.of("k", 2L))));
        Tagged tagged = new Tagged(Color.BLUE, items, index);
        Tagged back = (Tagged) roundTrip(codec, tagged);
        assertEquals(tagged, back);
        assertInstanceOf(LinkedList.class, back.items().get(5));

        Account account = new Account("ada", 1_000_000_000_000L, new Segment(p, p));
        account.history.add(new TreeSet<>(Set.of(3, 1, 2)));
        account.history.add(null);
        Account accountBack = (Account) roundTrip(codec, account);
        assertEquals(account, accountBack);
        assertEquals(List.of(1, 2, 3), new ArrayList<>((TreeSet<?>) accountBack.history.get(0)));
    }

    @Test
    @Timeout(10)
    void valueTypesOfTheJdkThatKryoKnowsCanBeAllowed() {
        KryoCodec codec = new KryoCodec(BigDecimal.class, Instant.class, LocalDate.class);
        for (Object value : List.of(new BigDecimal("-12345678901234567890.000001"), Instant.ofEpochSecond(1, 2),
                LocalDate.of(2024, 2, 29))) {
            assertEquals(value, roundTrip(codec, value));
        }
    }

    @Test
    @Timeout(10)
    void nodesAgreeWhateverTheOrderOfAllow() {
        KryoCodec one = new KryoCodec(Point.class, Segment.class, Color.class, ArrayList.class);
        KryoCodec other = new KryoCodec(ArrayList.class, Color.class, Segment.class, Point.class);
        Object value = new ArrayList<>(List.of(new Segment(new Point(1, 2, "a"), new Point(3, 4, "b")), Color.BLUE));
        assertArrayEquals(one.encode(value), other.encode(value), "the same bytes");
        assertEquals(value, other.decode(one.encode(value)));
        assertEquals(value, one.decode(other.encode(value)));
    }

    @Test
    @Timeout(10)
    void aNodeThatAllowsMoreStillReadsWhatBothAllow() {
        KryoCodec few = new KryoCodec(Segment.class, Point.class);
        KryoCodec many = new KryoCodec(Holder.class, Account.class, Point.class, Color.class, Segment.class,
                HashMap.class, Op.class);
        Segment segment = new Segment(new Point(1, 2, "a"), null);
        assertEquals(segment, many.decode(few.encode(segment)));
        assertEquals(segment, few.decode(many.encode(segment)));
        assertEquals(new NetChannelLocation(HOST, 3), few.decode(many.encode(new NetChannelLocation(HOST, 3))));
    }

    @Test
    @Timeout(10)
    void theWriterRefusesATypeItDoesNotAllowNamingItAndAllow() {
        KryoCodec codec = new KryoCodec(Point.class, Holder.class, ArrayList.class);
        assertRefusedAtWriter(codec, new Segment(null, null), Segment.class);
        assertRefusedAtWriter(codec, new Holder(new Segment(null, null)), Segment.class);
        assertRefusedAtWriter(codec, new ArrayList<>(List.of(new Point(1, 1, ""), UUID.randomUUID())), UUID.class);
        assertRefusedAtWriter(codec, new Holder(new HashMap<>()), HashMap.class);
        assertRefusedAtWriter(codec, new Object(), Object.class);
        assertRefusedAtWriter(codec, new String[] {"x"}, String[].class);
        assertRefusedAtWriter(new KryoCodec(), new Point(0, 0, ""), Point.class);
        assertEquals(new Point(1, 1, ""), roundTrip(codec, new Point(1, 1, "")), "a refusal leaves the codec usable");
    }

    private static void assertRefusedAtWriter(KryoCodec codec, Object value, Class<?> refused) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.encode(value));
        assertTrue(e.getMessage().contains(refused.getName() + " is not allowed"), e.getMessage());
        assertTrue(e.getMessage().contains("allow("), e.getMessage());
    }

    @Test
    @Timeout(10)
    void theReaderRefusesATypeItDoesNotAllowAndBuildsNoneOfIt() {
        KryoCodec writer = new KryoCodec(Audited.class, Holder.class, ArrayList.class, Point.class);
        KryoCodec reader = new KryoCodec(Holder.class, ArrayList.class, Point.class);
        List<byte[]> messages = List.of(writer.encode(new Audited(1)), writer.encode(new Holder(new Audited(2))),
                writer.encode(new ArrayList<>(List.of(new Point(0, 0, "ok"), new Audited(3)))));
        int built = Audited.BUILT.get();
        for (byte[] message : messages) {
            assertThrows(IllegalArgumentException.class, () -> reader.decode(message));
        }
        assertEquals(built, Audited.BUILT.get(), "the reader built no Audited");
        assertEquals(new Holder(new Audited(4)), writer.decode(writer.encode(new Holder(new Audited(4)))),
                "the writer itself reads them");
    }

    @Test
    @Timeout(10)
    void recordsAreValidatedByTheirConstructorOnTheWayIn() {
        KryoCodec codec = new KryoCodec();
        byte[] one = codec.encode(new NetChannelLocation(HOST, 1));
        byte[] two = codec.encode(new NetChannelLocation(HOST, 2));
        int at = Arrays.mismatch(one, two); // the id, a zigzag varlong: 1 is 2, 2 is 4
        byte[] bad = one.clone();
        bad[at] = 0; // the id 0, which the constructor refuses
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.decode(bad));
        assertTrue(e.getMessage().contains("a channel id is positive"), e.getMessage());
    }

    @Test
    @Timeout(10)
    void typesThatMakeNoSenseToAllowAreRefusedAtConstruction() {
        Runnable lambda = () -> {};
        class Local {}
        Object anonymous = new Object() {};
        Object proxy = Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Runnable.class},
                (p, m, a) -> null);
        Map<Class<?>, String> refusals = new java.util.LinkedHashMap<>();
        refusals.put(Runnable.class, "an interface");
        refusals.put(Callable.class, "an interface");
        refusals.put(AbstractList.class, "abstract");
        refusals.put(Number.class, "abstract");
        refusals.put(Object[].class, "arrays of objects");
        refusals.put(Point[].class, "arrays of objects");
        refusals.put(void.class, "void");
        refusals.put(lambda.getClass(), "no stable name");
        refusals.put(Local.class, "no stable name");
        refusals.put(anonymous.getClass(), "no stable name");
        refusals.put(proxy.getClass(), "no stable name");
        refusals.put(Inner.class, "make it static");
        refusals.put(NoDefaultConstructor.class, "no-argument constructor");
        refusals.put(ArrayBlockingQueue.class, "no-argument constructor");
        refusals.put(UUID.class, "cannot allow"); // its private fields are closed to Kryo
        refusals.forEach((type, why) -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new KryoCodec(Point.class, type));
            assertTrue(e.getMessage().contains(type.getName()) && e.getMessage().contains(why), e.getMessage());
        });
        assertThrows(IllegalArgumentException.class, () -> new KryoCodec(Point.class, null));
        assertThrows(IllegalArgumentException.class, () -> new KryoCodec((Class<?>[]) null));
    }

    @Test
    @Timeout(10)
    void builtInsAndRepeatsMayBeGivenToAllowAgain() {
        KryoCodec codec = new KryoCodec(String.class, int.class, Integer.class, byte[].class, NetChannelLocation.class,
                Point.class, Point.class);
        assertEquals(new Point(1, 2, "x"), roundTrip(codec, new Point(1, 2, "x")));
        assertArrayEquals(new KryoCodec().encode("same"), codec.encode("same"), "built-in ids unchanged");
    }

    @Test
    @Timeout(10)
    void twoClassesWhoseNamesHashAlikeAreRefusedTogether() throws Exception {
        Map<Integer, String> byId = new HashMap<>();
        String first = null;
        String second = null;
        for (int i = 0; second == null; i++) {
            String name = "dev.weft.net.Collides" + i;
            String earlier = byId.putIfAbsent(KryoAllowList.idOf(name), name);
            if (earlier != null) {
                first = earlier;
                second = name;
            }
        }
        EmptyClassLoader loader = new EmptyClassLoader();
        Class<?> a = loader.define(first);
        Class<?> b = loader.define(second);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new KryoCodec(a, b));
        assertTrue(e.getMessage().contains(first) && e.getMessage().contains(second)
                && e.getMessage().contains("same wire id"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new KryoCodec(b, Point.class, a));
    }

    /** Defines classes of any name with nothing but a no-argument constructor. */
    private static final class EmptyClassLoader extends ClassLoader {
        EmptyClassLoader() {
            super(null);
        }

        Class<?> define(String name) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(0xCAFEBABE);
            out.writeShort(0);
            out.writeShort(52); // Java 8: no stack map needed without branches
            out.writeShort(10); // constant pool, counted from 1:
            out.writeByte(1);
            out.writeUTF(name.replace('.', '/')); // #1
            out.writeByte(7);
            out.writeShort(1); // #2 this class
            out.writeByte(1);
            out.writeUTF("java/lang/Object"); // #3
            out.writeByte(7);
            out.writeShort(3); // #4 super class
            out.writeByte(1);
            out.writeUTF("<init>"); // #5
            out.writeByte(1);
            out.writeUTF("()V"); // #6
            out.writeByte(12);
            out.writeShort(5);
            out.writeShort(6); // #7 <init>()V
            out.writeByte(10);
            out.writeShort(4);
            out.writeShort(7); // #8 Object.<init>()V
            out.writeByte(1);
            out.writeUTF("Code"); // #9
            out.writeShort(0x0001 | 0x0010 | 0x0020); // public final super
            out.writeShort(2);
            out.writeShort(4);
            out.writeShort(0); // interfaces
            out.writeShort(0); // fields
            out.writeShort(1); // methods: public <init>() { super(); }
            out.writeShort(0x0001);
            out.writeShort(5);
            out.writeShort(6);
            out.writeShort(1);
            out.writeShort(9); // Code
            out.writeInt(2 + 2 + 4 + 5 + 2 + 2);
            out.writeShort(1); // max stack
            out.writeShort(1); // max locals
            out.writeInt(5);
            out.write(new byte[] {0x2a, (byte) 0xb7, 0, 8, (byte) 0xb1}); // aload_0, invokespecial #8, return
            out.writeShort(0); // exception table
            out.writeShort(0); // code attributes
            out.writeShort(0); // class attributes
            byte[] b = bytes.toByteArray();
            return defineClass(name, b, 0, b.length);
        }
    }

    @Test
    @Timeout(10)
    void wireIdsAreStableAndInTheirRange() {
        int id = KryoAllowList.idOf("dev.weft.example.Order");
        assertEquals(id, KryoAllowList.idOf(new String("dev.weft.example.Order".toCharArray())));
        // FNV-1a of the name, top 26 bits, in 2^26 .. 2^27 - 1: pinned, since it is wire format
        assertEquals(0x5e1106f, id); // 2^26 | 0x78441bde >>> 6
        for (String name : List.of("a", "java.util.ArrayList", "x".repeat(500))) {
            int other = KryoAllowList.idOf(name);
            assertTrue(other >= 1 << 26 && other < 1 << 27, name + " -> " + other);
        }
    }

    @Test
    @Timeout(10)
    void aComparatorIsRefusedAtTheWriterNotLost() {
        KryoCodec codec = new KryoCodec(TreeSet.class, TreeMap.class);
        TreeSet<String> reversed = new TreeSet<>(Comparator.reverseOrder());
        reversed.add("a");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.encode(reversed));
        assertTrue(e.getMessage().contains("comparator"), e.getMessage());
        TreeMap<String, Integer> map = new TreeMap<>(Comparator.reverseOrder());
        assertThrows(IllegalArgumentException.class, () -> codec.encode(map));
        assertEquals(new TreeSet<>(Set.of("b", "a")), roundTrip(codec, new TreeSet<>(Set.of("b", "a"))));
    }

    @Test
    @Timeout(10)
    void aCycleIsRefusedAtTheWriterInsteadOfOverflowingTheStack() {
        KryoCodec codec = new KryoCodec(Cell.class);
        Cell cell = new Cell();
        cell.next = cell;
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> codec.encode(cell));
        assertTrue(e.getMessage().contains("depth"), e.getMessage());
        Cell chain = new Cell();
        for (int i = 0; i < 100; i++) {
            Cell head = new Cell();
            head.next = chain;
            chain = head;
        }
        assertInstanceOf(Cell.class, roundTrip(codec, chain), "a hundred levels are fine");
    }

    @Test
    @Timeout(30)
    void oneCodecServesManyThreadsAtOnce() throws Exception {
        KryoCodec codec = new KryoCodec(Point.class, Segment.class, ArrayList.class);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    for (int i = 0; i < 5_000; i++) {
                        Object value = i % 2 == 0
                                ? new Segment(new Point(thread, i, "t" + thread), null)
                                : new ArrayList<>(List.of("x".repeat(i % 300), thread, (long) i));
                        assertEquals(value, codec.decode(codec.encode(value)));
                        if (i % 1000 == 0) {
                            assertThrows(IllegalArgumentException.class, () -> codec.encode(new Holder(null)));
                        }
                    }
                    return thread;
                }));
            }
            for (Future<Integer> result : results) {
                result.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
