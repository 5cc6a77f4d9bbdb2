package dev.weft.net.internal;

import dev.weft.net.NetChannelLocation;
import dev.weft.net.NodeAddress;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A net input on its way to another node ({@link Protocol#END}): what it is, where it has been, what it knows
 * of its writers, and its unread values, in order, ahead of anything newer.
 *
 * @param location  its location, which never changes
 * @param moves     how many times it has moved, this move included
 * @param left      its local name on the node it leaves, where it leaves a forwarding pointer
 * @param capacity  0 if synchronous, else its capacity per writer
 * @param failure   the message of the poison it carries, or null
 * @param lost      whether that poison is a lost link's ({@link dev.weft.net.LinkLostException})
 * @param closed    whether a writer closed it
 * @param writers   its writers
 * @param unread    its unread values, in order
 * @param held      values that arrived ahead of a predecessor still on its way, by writer and number
 */
record EndImage(NetChannelLocation location, long moves, NetChannelLocation left, int capacity, String failure,
                boolean lost, boolean closed, List<Writer> writers, List<Item> unread, List<Item> held) {

    /**
     * A writing lane as the input knows it.
     *
     * @param node      the writer's node
     * @param lane      its lane there
     * @param arrived   how many of its values arrived in order (the number of the last)
     * @param owed      values read whose credit is not given back yet
     * @param opened    whether it was told that the input is buffered
     * @param withdrawn the number of a value withdrawn before it arrived, or 0
     */
    record Writer(NodeAddress node, long lane, long arrived, int owed, boolean opened, long withdrawn) {
    }

    /**
     * A value: its writer (an index into {@link #writers}), its number (for a held one; 0 for an unread one,
     * already in order) and its bytes.
     */
    record Item(int writer, long seq, byte[] bytes) {
    }

    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            Parcel.writeAddress(out, location.node());
            out.writeLong(location.id());
            out.writeLong(moves);
            Parcel.writeAddress(out, left.node());
            out.writeLong(left.id());
            out.writeInt(capacity);
            out.writeBoolean(failure != null);
            if (failure != null) {
                out.writeUTF(failure.length() > 10_000 ? failure.substring(0, 10_000) : failure);
                out.writeBoolean(lost);
            }
            out.writeBoolean(closed);
            out.writeInt(writers.size());
            for (Writer w : writers) {
                Parcel.writeAddress(out, w.node);
                out.writeLong(w.lane);
                out.writeLong(w.arrived);
                out.writeInt(w.owed);
                out.writeBoolean(w.opened);
                out.writeLong(w.withdrawn);
            }
            writeItems(out, unread);
            writeItems(out, held);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // not from a byte array
        }
        return bytes.toByteArray();
    }

    private static void writeItems(DataOutputStream out, List<Item> items) throws IOException {
        out.writeInt(items.size());
        for (Item i : items) {
            out.writeInt(i.writer);
            out.writeLong(i.seq);
            out.writeInt(i.bytes.length);
            out.write(i.bytes);
        }
    }

    /**
     * Reads an image, holding every count and length to the bytes there are.
     *
     * @throws IllegalArgumentException if the bytes are malformed
     */
    static EndImage decode(byte[] bytes) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
            NetChannelLocation location = new NetChannelLocation(Parcel.readAddress(in), in.readLong());
            long moves = in.readLong();
            NetChannelLocation left = new NetChannelLocation(Parcel.readAddress(in), in.readLong());
            int capacity = in.readInt();
            if (capacity < 0 || moves < 1) {
                throw new IllegalArgumentException("capacity " + capacity + ", moves " + moves);
            }
            String failure = in.readBoolean() ? in.readUTF() : null;
            boolean lost = failure != null && in.readBoolean();
            boolean closed = in.readBoolean();
            int n = count(in, 8);
            List<Writer> writers = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                writers.add(new Writer(Parcel.readAddress(in), in.readLong(), in.readLong(), in.readInt(),
                        in.readBoolean(), in.readLong()));
            }
            List<Item> unread = readItems(in, n);
            List<Item> held = readItems(in, n);
            if (in.available() != 0) {
                throw new IllegalArgumentException(in.available() + " bytes after an input's image");
            }
            return new EndImage(location, moves, left, capacity, failure, lost, closed, writers, unread, held);
        } catch (IOException e) {
            throw new IllegalArgumentException("a truncated input image", e);
        }
    }

    private static List<Item> readItems(DataInputStream in, int writers) throws IOException {
        int n = count(in, 16);
        List<Item> items = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int w = in.readInt();
            if (w < 0 || w >= writers) {
                throw new IllegalArgumentException("a value of writer " + w + " of " + writers);
            }
            long seq = in.readLong();
            int length = in.readInt();
            if (length < 0 || length > in.available()) {
                throw new IllegalArgumentException("a value of " + length + " bytes, " + in.available() + " left");
            }
            items.add(new Item(w, seq, in.readNBytes(length)));
        }
        return items;
    }

    /** A count of entries at least {@code entryBytes} long each, held to the bytes left. */
    private static int count(DataInputStream in, int entryBytes) throws IOException {
        int n = in.readInt();
        if (n < 0 || (long) n * entryBytes > in.available()) {
            throw new IllegalArgumentException(n + " entries in " + in.available() + " bytes");
        }
        return n;
    }
}
