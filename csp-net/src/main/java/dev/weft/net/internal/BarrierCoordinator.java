package dev.weft.net.internal;

import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.PoisonException;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.Node;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The coordinator of a {@link dev.weft.net.NetBarrier}: a thread on the barrier's home node that reads one message per
 * node and event ({@code KIND number location}: a node joins, gains its first party, loses its last, or
 * has all its parties arrived) and releases every node when all nodes with parties have arrived. Messages
 * are strings so that the barrier works with any codec.
 */
public final class BarrierCoordinator {
    /** A node joins ({@code JOIN 1 location} if it has parties, {@code JOIN 0 location} if not). */
    public static final String JOIN = "JOIN";
    /** A node gains its first party ({@code ENROLL version location}). */
    public static final String ENROLL = "ENROLL";
    /** A node loses its last party ({@code RESIGN version location}). */
    public static final String RESIGN = "RESIGN";
    /** Every party of a node has arrived in this round ({@code ARRIVE 0 location}). */
    public static final String ARRIVE = "ARRIVE";

    private final Node node;
    private final String name;
    /** No round completes before this many nodes have joined. */
    private final int nodes;
    /** Each node's end, by the location of its release input. */
    private final Map<String, Member> members = new LinkedHashMap<>();

    private BarrierCoordinator(Node node, String name, int nodes) {
        this.node = node;
        this.name = name;
        this.nodes = nodes;
    }

    /** Starts the coordinator of barrier {@code name} of {@code nodes} nodes on a thread of its own, reading {@code news}. */
    public static void start(Node node, String name, int nodes, ChannelInput<String> news) {
        BarrierCoordinator c = new BarrierCoordinator(node, name, nodes);
        Thread t = new Thread(() -> c.run(news), "weft-barrier-coordinator-" + name);
        t.setDaemon(true);
        t.start();
    }

    private void run(ChannelInput<String> news) {
        try {
            for (;;) {
                hear(news.read());
                releaseIfAllArrived();
            }
        } catch (PoisonException e) {
            // a node lost (or this node closed): every node's parties fail
            for (Member m : members.values()) {
                m.release.poison();
            }
        }
    }

    private void hear(String message) {
        String[] parts = message.split(" ", 3);
        long number = Long.parseLong(parts[1]);
        Member m = members.get(parts[2]);
        switch (parts[0]) {
            case JOIN -> {
                m = new Member(node.one2net(NetChannelLocation.parse(parts[2])));
                m.active = number == 1;
                members.put(parts[2], m);
            }
            case ENROLL, RESIGN -> {
                if (number > m.version) { // a node's enroll and resign may overtake each other
                    m.version = number;
                    m.active = parts[0].equals(ENROLL);
                    m.arrived = false;
                }
            }
            case ARRIVE -> m.arrived = true;
            default -> throw new IllegalStateException("barrier '" + name + "': unknown message " + message);
        }
    }

    private void releaseIfAllArrived() {
        if (members.size() < nodes) {
            return;
        }
        boolean any = false;
        for (Member m : members.values()) {
            if (m.active && !m.arrived) {
                return;
            }
            any |= m.arrived;
        }
        if (!any) {
            return;
        }
        for (Member m : members.values()) {
            if (m.arrived) {
                m.arrived = false;
                m.release.write(Boolean.TRUE); // into a buffer of one: returns at once after the first round
            }
        }
    }

    /** What the coordinator knows of one node's end. */
    private static final class Member {
        final ChannelOutput<Boolean> release;
        boolean active;
        boolean arrived;
        long version;

        Member(ChannelOutput<Boolean> release) {
            this.release = release;
        }
    }
}
