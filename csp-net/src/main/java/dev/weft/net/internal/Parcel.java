package dev.weft.net.internal;

import dev.weft.net.NetChannelLocation;
import dev.weft.net.NodeAddress;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What a {@link Protocol#DIRECT} or {@link Protocol#FORWARD} frame carries to a moved input: a value, a moving
 * input or a withdrawal ({@code kind}), the writer's sequence number for it (its lane's values are numbered
 * from 1), the writer's node when it comes by way of an old home (null when straight from the writer), and
 * the bytes. Also the reading and writing of addresses that the mobile frames share.
 *
 * @param kind   {@link Protocol#VALUE}, {@link Protocol#MOVING_END} or {@link Protocol#WITHDRAWAL}
 * @param seq    the value's number on its lane
 * @param writer the writer's node (FORWARD only)
 * @param body   the value's bytes (the codec's, or an {@link EndImage}'s); empty for a withdrawal
 */
record Parcel(byte kind, long seq, NodeAddress writer, byte[] body) {
    private static final byte[] NONE = new byte[0];

    /** A DIRECT frame's payload. */
    static byte[] direct(byte kind, long seq, byte[] body) {
        return encode(kind, seq, null, body);
    }

    /** A FORWARD frame's payload. */
    static byte[] forward(byte kind, long seq, NodeAddress writer, byte[] body) {
        return encode(kind, seq, writer, body);
    }

    private static byte[] encode(byte kind, long seq, NodeAddress writer, byte[] body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(body.length + 32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(kind);
            out.writeLong(seq);
            if (writer != null) {
                writeAddress(out, writer);
            }
            out.write(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // not from a byte array
        }
        return bytes.toByteArray();
    }

    /**
     * Reads a DIRECT ({@code forwarded} false) or FORWARD payload.
     *
     * @throws IllegalArgumentException if it is malformed
     */
    static Parcel read(byte[] payload, boolean forwarded) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
            byte kind = in.readByte();
            if (kind != Protocol.VALUE && kind != Protocol.MOVING_END && kind != Protocol.WITHDRAWAL) {
                throw new IllegalArgumentException("unknown parcel kind " + kind);
            }
            long seq = in.readLong();
            if (seq < 1) {
                throw new IllegalArgumentException("sequence number " + seq);
            }
            NodeAddress writer = forwarded ? readAddress(in) : null;
            byte[] body = in.available() == 0 ? NONE : in.readAllBytes();
            return new Parcel(kind, seq, writer, body);
        } catch (IOException e) {
            throw new IllegalArgumentException("a truncated parcel", e);
        }
    }

    /** A REDIRECT or HOME frame's payload: where an input lives now. */
    static byte[] home(NodeAddress node, long id) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(id);
            writeAddress(out, node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * Reads a REDIRECT or HOME frame's payload.
     *
     * @throws IllegalArgumentException if it is malformed
     */
    static NetChannelLocation readHome(byte[] payload) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
            long id = in.readLong();
            NodeAddress node = readAddress(in);
            if (in.available() != 0) {
                throw new IllegalArgumentException(in.available() + " bytes after a home");
            }
            return new NetChannelLocation(node, id);
        } catch (IOException e) {
            throw new IllegalArgumentException("a truncated home", e);
        }
    }

    static void writeAddress(DataOutputStream out, NodeAddress a) throws IOException {
        out.writeUTF(a.host());
        out.writeShort(a.port());
    }

    static NodeAddress readAddress(DataInputStream in) throws IOException {
        String host = in.readUTF();
        int port = in.readUnsignedShort();
        if (port == 0) {
            throw new IllegalArgumentException("a node address with port 0");
        }
        return new NodeAddress(host, port);
    }
}
