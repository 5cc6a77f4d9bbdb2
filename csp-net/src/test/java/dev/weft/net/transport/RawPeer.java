package dev.weft.net.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.net.NodeAddress;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * A hand-written peer on a plain socket, which speaks the wire format from its specification (not through the
 * transport's classes) and can break it at will.
 */
final class RawPeer implements AutoCloseable {
    static final byte[] MAGIC = "WEFT".getBytes(StandardCharsets.US_ASCII);
    private static final SecureRandom RANDOM = new SecureRandom();
    final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;

    private RawPeer(Socket socket) throws IOException {
        this.socket = socket;
        socket.setSoTimeout(20_000);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    static RawPeer connect(NodeAddress to) throws IOException {
        return new RawPeer(new Socket(to.host(), to.port()));
    }

    /** As {@link #connect(NodeAddress)}, with a receive buffer of {@code bytes}: a peer that can take only so much. */
    static RawPeer connect(NodeAddress to, int receiveBufferBytes) throws IOException {
        Socket s = new Socket();
        s.setReceiveBufferSize(receiveBufferBytes); // before connecting: it sets the window the peer advertises
        s.connect(new java.net.InetSocketAddress(to.host(), to.port()));
        return new RawPeer(s);
    }

    /** The next connection a node makes to {@code server}. */
    static RawPeer accept(java.net.ServerSocket server) throws IOException {
        return new RawPeer(server.accept());
    }

    /** The newest protocol version the node speaks, as the specification says. */
    static final int VERSION = 3;

    /** A hello of this version as the node at {@code as}, accepting frames of up to 16 MiB. */
    static byte[] hello(NodeAddress as, boolean secret, long incarnation, long link) {
        return hello(as, VERSION, VERSION - 1, secret, incarnation, link, 16 << 20);
    }

    /**
     * A hello payload: magic, newest and oldest version, flags, incarnation, link id, nonce, port, host length,
     * host; from version 3 on, maxFrameBytes; past version 3, four more bytes that a version 3 node must skip.
     */
    static byte[] hello(NodeAddress as, int newest, int oldest, boolean secret, long incarnation, long link,
                        int maxFrameBytes) {
        byte[] host = as.host().getBytes(StandardCharsets.UTF_8);
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        ByteBuffer b = ByteBuffer.allocate(4 + 2 + 2 + 1 + 8 + 8 + 16 + 2 + 2 + host.length + 4 + 4).put(MAGIC)
                .putShort((short) newest).putShort((short) oldest).put((byte) (secret ? 1 : 0)).putLong(incarnation)
                .putLong(link).put(nonce).putShort((short) as.port()).putShort((short) host.length).put(host);
        if (newest >= 3) {
            b.putInt(maxFrameBytes);
        }
        if (newest > 3) {
            b.putInt(0x5EC0DE); // a field of a version this node does not know
        }
        return Arrays.copyOf(b.array(), b.position());
    }

    /** A hello of version 1, before versions were negotiated: magic, version, flags, ..., port, host (the rest). */
    static byte[] helloVersion1(NodeAddress as, long incarnation) {
        byte[] host = as.host().getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + 2 + 1 + 8 + 8 + 16 + 2 + host.length).put(MAGIC).putShort((short) 1)
                .put((byte) 0).putLong(incarnation).putLong(1).put(new byte[16]).putShort((short) as.port())
                .put(host).array();
    }

    /** A frame as it goes on the wire, length prefix first. */
    static byte[] encode(int type, long channel, long number, byte[] payload) {
        return ByteBuffer.allocate(4 + 17 + payload.length).putInt(17 + payload.length).put((byte) type)
                .putLong(channel).putLong(number).put(payload).array();
    }

    void writeFrame(int type, long channel, long number, byte[] payload) throws IOException {
        writeRaw(encode(type, channel, number, payload));
    }

    /** Writes {@code parts} in one go: what follows a bad frame arrives with it, before the node closes. */
    void writeRaw(byte[]... parts) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            all.write(part);
        }
        all.writeTo(out);
        out.flush();
    }

    /** The next frame: type, channel, number, payload. */
    Frame readFrame() throws IOException {
        int length = in.readInt();
        byte type = in.readByte();
        long channel = in.readLong();
        long number = in.readLong();
        byte[] payload = new byte[length - 17];
        in.readFully(payload);
        return new Frame(type, channel, number, payload);
    }

    /** The next frame that is not a heartbeat. */
    Frame readNonPing() throws IOException {
        for (;;) {
            Frame f = readFrame();
            if (f.type() != 4) {
                return f;
            }
        }
    }

    /** Reads the node's hello and checks its magic and version; returns its payload. */
    byte[] readHello() throws IOException {
        Frame f = readFrame();
        assertEquals(0, f.type(), "the first frame is a hello");
        assertArrayEquals(MAGIC, Arrays.copyOf(f.payload(), 4));
        assertEquals(VERSION, ByteBuffer.wrap(f.payload(), 4, 2).getShort());
        assertEquals(VERSION - 1, ByteBuffer.wrap(f.payload(), 6, 2).getShort(), "each version speaks the one before");
        return f.payload();
    }

    /** A whole handshake without secret as the node at {@code as}; returns the node's link id from its ACCEPT. */
    long handshake(NodeAddress as, long incarnation, long link) throws IOException {
        return handshake(hello(as, false, incarnation, link));
    }

    /** A whole handshake with {@code hello}; returns the node's link id from its ACCEPT. */
    long handshake(byte[] hello) throws IOException {
        writeFrame(0, 0, 0, hello);
        readHello();
        Frame accept = readFrame();
        assertEquals(2, accept.type(), "the node accepts the connection");
        return accept.number();
    }

    /** Reads until the node closes the connection; true if it did (EOF or reset). */
    boolean awaitClosed() throws IOException {
        InputStream s = socket.getInputStream();
        byte[] sink = new byte[8192];
        try {
            while (s.read(sink) >= 0) {
                // skip what the node sent before closing
            }
            return true;
        } catch (SocketException | EOFException e) {
            return true; // reset
        }
    }

    /** Closes with a reset instead of a FIN, as a crashed host would. */
    void reset() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
