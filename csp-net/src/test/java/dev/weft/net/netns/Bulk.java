package dev.weft.net.netns;

import dev.weft.csp.Pausable;
import dev.weft.net.NetChannelInput;
import dev.weft.net.launch.Cluster;

/**
 * One large value that node 1 sends node 0 while a program runs, so that it shares node 1's link to node 0 with
 * the program's own values and with that link's heartbeats: a byte array whose every byte is known, checked whole.
 */
final class Bulk {
    static final String NAME = "bulk";

    private Bulk() {
    }

    /** Node 1's part: sends {@code bytes} bytes (nothing if 0). */
    @Pausable
    static void send(Cluster c, int bytes) {
        if (bytes > 0) {
            byte[] value = new byte[bytes];
            for (int i = 0; i < bytes; i++) {
                value[i] = expected(i);
            }
            c.node().<byte[]>one2net(NAME).write(value);
        }
    }

    /** Node 0's part: reads the value from {@code in} and checks it; a note for the result, how long it took. */
    @Pausable
    static String receive(NetChannelInput<byte[]> in, int bytes, long startNanos) {
        byte[] value = in.read();
        if (value.length != bytes) {
            throw new IllegalStateException("the bulk value has " + value.length + " bytes, not " + bytes);
        }
        for (int i = 0; i < bytes; i++) {
            if (value[i] != expected(i)) {
                throw new IllegalStateException("byte " + i + " of the bulk value is " + value[i] + ", not " + expected(i));
            }
        }
        return String.format("; %d bytes of bulk intact after %.1f s", bytes, (System.nanoTime() - startNanos) / 1e9);
    }

    private static byte expected(int i) {
        return (byte) (i * 31 + 7);
    }
}
