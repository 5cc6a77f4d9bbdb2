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

    /** A hello payload: magic, version, flags, incarnation, link id, nonce, port, host. */
    static byte[] hello(NodeAddress as, int version, boolean secret, long incarnation, long link) {
        byte[] host = as.host().getBytes(StandardCharsets.UTF_8);
        byte[] nonce = new byte[16];
        RANDOM.nextBytes(nonce);
        return ByteBuffer.allocate(4 + 2 + 1 + 8 + 8 + 16 + 2 + host.length).put(MAGIC).putShort((short) version)
                .put((byte) (secret ? 1 : 0)).putLong(incarnation).putLong(link).put(nonce)
                .putShort((short) as.port()).put(host).array();
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
        assertEquals(1, ByteBuffer.wrap(f.payload(), 4, 2).getShort());
        return f.payload();
    }

    /** A whole handshake without secret as the node at {@code as}; returns the node's link id from its ACCEPT. */
    long handshake(NodeAddress as, long incarnation, long link) throws IOException {
        writeFrame(0, 0, 0, hello(as, 1, false, incarnation, link));
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
