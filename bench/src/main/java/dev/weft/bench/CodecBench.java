package dev.weft.bench;

import dev.weft.net.codec.KryoCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One encode and one decode of a value, by the default codec of networked channels ({@link KryoCodec}: Kryo 5,
 * registration required) and, for reference only, by Java serialization ({@code ObjectOutputStream}), which
 * Weft never runs on network bytes. Two values: a small record (an int, a long and a 16-char string) and a
 * 1 KB {@code byte[]}. The score is ns per encode+decode; with {@code -prof gc}, {@code gc.alloc.rate.norm}
 * is bytes allocated per encode+decode. The setup prints each value's encoded size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class CodecBench {
    /** The small value; {@code Serializable} only so that Java serialization can take part. */
    public record Order(int quantity, long id, String symbol) implements Serializable {}

    private final KryoCodec kryo = new KryoCodec(Order.class);
    private final Order order = new Order(42, 1_234_567_890_123L, "WEFT-0123456789A");
    private final byte[] kilobyte = new byte[1024];

    @Setup(Level.Trial)
    public void fill() throws IOException {
        new Random(7).nextBytes(kilobyte);
        System.out.printf("%nencoded sizes: record %d bytes (Kryo), %d (Java); 1 KB byte[] %d (Kryo), %d (Java)%n",
                kryo.encode(order).length, javaEncode(order).length, kryo.encode(kilobyte).length,
                javaEncode(kilobyte).length);
    }

    @Benchmark
    public Object kryoRecord() {
        return kryo.decode(kryo.encode(order));
    }

    @Benchmark
    public Object javaRecord() throws IOException, ClassNotFoundException {
        return javaDecode(javaEncode(order));
    }

    @Benchmark
    public Object kryoBytes() {
        return kryo.decode(kryo.encode(kilobyte));
    }

    @Benchmark
    public Object javaBytes() throws IOException, ClassNotFoundException {
        return javaDecode(javaEncode(kilobyte));
    }

    private static byte[] javaEncode(Object value) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        }
        return bytes.toByteArray();
    }

    private static Object javaDecode(byte[] bytes) throws IOException, ClassNotFoundException {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes))) {
            return in.readObject();
        }
    }
}
