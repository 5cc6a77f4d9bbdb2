package dev.weft.net;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free ports for a server that starts after its clients. A port from the ephemeral range, found free and released,
 * may be handed meanwhile to a node that binds port 0 (every node that is not a server does): the server then
 * cannot bind it, or a client dials itself. Ports below that range are never handed out so.
 */
public final class FreePorts {
    private FreePorts() {
    }

    /** A port free on the loopback address now, below the kernel's ephemeral range. */
    public static int belowTheEphemeralRange() throws IOException {
        int low = 32768;
        try {
            low = Integer.parseInt(Files.readAllLines(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).get(0).trim()
                    .split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            // not Linux: the usual range's start
        }
        int from = Math.max(1024, low - 10_000);
        for (int p = from + ThreadLocalRandom.current().nextInt(Math.max(1, low - from - 100)); p < low; p++) {
            try (ServerSocket s = new ServerSocket(p, 1, InetAddress.getLoopbackAddress())) {
                return p;
            } catch (IOException taken) {
                // the next one
            }
        }
        throw new IOException("no free port below " + low);
    }
}
