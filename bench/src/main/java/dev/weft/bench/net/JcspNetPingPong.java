package dev.weft.bench.net;

import java.net.URL;
import java.net.URLClassLoader;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Function;
import org.jcsp.net2.NetAltingChannelInput;
import org.jcsp.net2.NetChannel;
import org.jcsp.net2.NetChannelLocation;
import org.jcsp.net2.NetChannelOutput;
import org.jcsp.net2.Node;
import org.jcsp.net2.tcpip.TCPIPNodeAddress;

/**
 * JCSP.net2 1.1-rc5 ping-pong of an {@code Integer} between two JCSP nodes in one JVM, over loopback TCP: the
 * client, a plain thread, writes a value on a net channel and reads its echo from another, as in the Weft
 * and raw Netty ping-pongs.
 *
 * <p>JCSP has one node per class loader ({@code Node.getInstance()}), and a channel to its own node skips the
 * network. So the echoing node is a second copy of JCSP, loaded by a class loader of its own ({@link Echo});
 * the two copies share nothing but the TCP connection, as two JVMs would. Their only link is strings: the
 * channel locations each side prints and the other parses.
 */
public final class JcspNetPingPong implements AutoCloseable {
    private static final int STOP = -1; // a constant: the echoing node's copy of Echo needs no copy of this class

    private final NetAltingChannelInput<Integer> pong;
    private final NetChannelOutput<Integer> ping;

    /** Starts this class loader's JCSP node (once per JVM) and an echoing node in a class loader of its own. */
    public JcspNetPingPong() {
        startNode();
        pong = NetChannel.net2one();
        String pingAt = isolatedEcho().apply(pong.getLocation().toString());
        ping = NetChannel.one2net(NetChannelLocation.parse(pingAt));
    }

    private static void startNode() {
        synchronized (Node.class) { // the distributed peers may have started this JVM's node
            if (Node.getInstance().getNodeID() == null) {
                Node.getInstance().init(new TCPIPNodeAddress("127.0.0.1", 0));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Function<String, String> isolatedEcho() {
        Set<URL> jars = new LinkedHashSet<>(); // one shaded jar, or JCSP's jar and these classes
        jars.add(Node.class.getProtectionDomain().getCodeSource().getLocation());
        jars.add(Echo.class.getProtectionDomain().getCodeSource().getLocation());
        ClassLoader loader = new URLClassLoader("jcsp-echo-node", jars.toArray(new URL[0]),
                ClassLoader.getPlatformClassLoader());
        try {
            return (Function<String, String>) loader.loadClass(Echo.class.getName()).getConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("could not load JCSP a second time for the echoing node", e);
        }
    }

    /** Makes {@code n} round trips from the calling thread; returns how many came back as sent. */
    public int roundTrips(int n) {
        int ok = 0;
        for (int i = 0; i < n; i++) {
            ping.write(i);
            if (pong.read() == i) {
                ok++;
            }
        }
        return ok;
    }

    /** Stops the echo and destroys this side's channel ends; JCSP has no way to stop a node. */
    @Override
    public void close() {
        ping.write(STOP);
        pong.read();
        ping.destroy();
        pong.destroy();
    }

    /**
     * The echoing node, in a class loader of its own: {@link #apply} starts that loader's JCSP node, makes the
     * ping input and an output to the given pong location, starts a thread that echoes every ping until
     * {@link #STOP}, and returns the ping input's location.
     */
    public static final class Echo implements Function<String, String> {
        @Override
        public String apply(String pongAt) {
            Node.getInstance().init(new TCPIPNodeAddress("127.0.0.1", 0));
            NetAltingChannelInput<Integer> ping = NetChannel.net2one();
            NetChannelOutput<Integer> pong = NetChannel.one2net(NetChannelLocation.parse(pongAt));
            Thread echo = new Thread(() -> {
                Integer v;
                do {
                    v = ping.read();
                    pong.write(v);
                } while (v != STOP);
            }, "jcsp-echo-node");
            echo.setDaemon(true);
            echo.start();
            return ping.getLocation().toString();
        }
    }
}
