package dev.weft.net.codec;

import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;

/**
 * A Kryo input over one whole message that holds every declared count to the bytes left. Each element of an
 * array, a string or a collection takes at least one byte on the wire, so a larger count is a lie, and Kryo
 * would believe it: it allocates the array before reading it, gigabytes for a few bytes.
 */
final class KryoBoundedInput extends Input {
    private static final byte[] NONE = new byte[0];
    private static final int KEPT_CHARS = 4096;

    /**
     * {@code count}, if the bytes left in {@code input} can hold that many elements.
     *
     * @throws KryoException if they cannot (or the count is negative)
     */
    static int claim(Input input, int count) {
        int left = input.limit() - input.position();
        if (count < 0 || count > left) {
            throw new KryoException("declares " + count + " elements with " + left + " bytes left");
        }
        return count;
    }

    /** Reads {@code message} from its start. */
    void start(byte[] message) {
        setBuffer(message);
    }

    /** Lets go of the message, and of the char buffer if a long string grew it: a pooled input keeps no large array. */
    void release() {
        setBuffer(NONE);
        if (chars.length > KEPT_CHARS) {
            chars = new char[32];
        }
    }

    @Override
    public byte[] readBytes(int length) {
        return super.readBytes(claim(this, length));
    }

    @Override
    public short[] readShorts(int length) {
        return super.readShorts(claim(this, length));
    }

    @Override
    public int[] readInts(int length) {
        return super.readInts(claim(this, length));
    }

    @Override
    public int[] readInts(int length, boolean optimizePositive) {
        return super.readInts(claim(this, length), optimizePositive);
    }

    @Override
    public long[] readLongs(int length) {
        return super.readLongs(claim(this, length));
    }

    @Override
    public long[] readLongs(int length, boolean optimizePositive) {
        return super.readLongs(claim(this, length), optimizePositive);
    }

    @Override
    public float[] readFloats(int length) {
        return super.readFloats(claim(this, length));
    }

    @Override
    public double[] readDoubles(int length) {
        return super.readDoubles(claim(this, length));
    }

    @Override
    public char[] readChars(int length) {
        return super.readChars(claim(this, length));
    }

    @Override
    public boolean[] readBooleans(int length) {
        return super.readBooleans(claim(this, length));
    }

    @Override
    public String readString() {
        claimChars();
        return super.readString();
    }

    @Override
    public StringBuilder readStringBuilder() {
        claimChars();
        return super.readStringBuilder();
    }

    /** A UTF-8 string declares its char count up front (an ASCII one just ends), and a char takes a byte or more. */
    private void claimChars() {
        if (!readVarIntFlag()) {
            return;
        }
        int start = position;
        int count = readVarIntFlag(true); // 0 for null, else the char count + 1
        if (count != 0) {
            claim(this, count - 1);
        }
        position = start;
    }
}
