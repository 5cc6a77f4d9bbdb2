package dev.weft.net;

import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.spi.Extensions;
import dev.weft.net.internal.BarrierCoordinator;

/**
 * A barrier whose parties are processes on several nodes: each {@link #sync()} waits until every party
 * enrolled on every node has called it, then all go on together. A node's parties are counted here; the
 * barrier's coordinator (on the node that made it with {@link Node#netBarrier}) hears one arrival per node
 * and round, and releases every node at once. So a round costs one message to the coordinator and one back
 * per node, whatever the number of local parties.
 *
 * <pre>{@code
 * NetBarrier b = node.netBarrier("step", 2, 2);    // coordinator here; 2 nodes; 2 parties on this node
 * NetBarrier c = other.connectBarrier("step", 1);  // one party on the other node
 * }</pre>
 *
 * <p>No round completes before the number of nodes given to {@code netBarrier} have joined. A node with no
 * enrolled party does not hold rounds up; its first {@link #enroll()} joins the current round. If a node is lost (killed, its link reset or silent for the heartbeat timeout), the barrier is
 * poisoned: every blocked and later {@code sync} on every node throws {@link PoisonException} (a
 * {@link LinkLostException} where the link to the lost node broke). A node that ends in order should resign
 * its parties before it closes.
 */
public final class NetBarrier {
    private final String name;
    private final ChannelOutput<String> coordinator;
    private final String me;
    private int enrolled;
    private int arrived;
    /** Bumped at each change of whether this node has parties, so the coordinator can drop stale news. */
    private long version;
    /** The current round's gate, and the gate of the round reported complete and not yet released. */
    private Gate gate = new Gate();
    private Gate releasing;
    private PoisonException failure;

    private NetBarrier(String name, ChannelOutput<String> coordinator, NetChannelLocation me, int enrolled) {
        this.name = name;
        this.coordinator = coordinator;
        this.me = me.toString();
        this.enrolled = enrolled;
    }

    /** Joins the barrier whose coordinator reads {@code coordinator}, with {@code parties} parties here. */
    @Pausable
    static NetBarrier join(Node node, String name, ChannelOutput<String> coordinator, int parties) {
        checkParties(parties);
        NetChannelInput<Boolean> releases = node.net2one(1);
        NetBarrier b = new NetBarrier(name, coordinator, releases.location(), parties);
        Thread t = new Thread(() -> b.releaseRounds(releases), "weft-barrier-" + name);
        t.setDaemon(true);
        t.start();
        b.signal(BarrierCoordinator.JOIN + " " + (parties > 0 ? 1 : 0));
        return b;
    }

    static void checkParties(int parties) {
        if (parties < 0) {
            throw new IllegalArgumentException("a barrier cannot have " + parties + " enrolled processes");
        }
    }

    /** The barrier's name. */
    public String name() {
        return name;
    }

    /**
     * Enrolls one more process on this node: each round now waits for it too. When this node had no
     * party, this tells the coordinator (one round trip) and joins the current round.
     *
     * @throws PoisonException if the barrier is poisoned
     */
    @Pausable
    public void enroll() {
        long v;
        synchronized (this) {
            checkHealthy();
            if (enrolled++ > 0) {
                return;
            }
            v = ++version;
        }
        signal(BarrierCoordinator.ENROLL + " " + v);
    }

    /**
     * Resigns one process of this node: rounds no longer wait for it. If every other party of this node has
     * arrived, this node's arrival is reported (one message); when the last party resigns, the coordinator
     * stops waiting for this node. Neither waits for the round to complete.
     *
     * @throws IllegalStateException if no process of this node is enrolled
     * @throws PoisonException       if the barrier is poisoned
     */
    @Pausable
    public void resign() {
        String news;
        synchronized (this) {
            checkHealthy();
            if (enrolled == 0) {
                throw new IllegalStateException("resign() on barrier '" + name + "' with no enrolled process here");
            }
            enrolled--;
            if (enrolled == 0) {
                news = BarrierCoordinator.RESIGN + " " + ++version;
            } else if (arrived == enrolled) {
                closeRound();
                news = BarrierCoordinator.ARRIVE + " 0";
            } else {
                return;
            }
        }
        signal(news);
    }

    /**
     * Waits until every process enrolled on every node has called {@code sync()} in this round.
     *
     * @throws IllegalStateException if no process of this node is enrolled
     * @throws PoisonException       if the barrier is, or becomes, poisoned (a node lost)
     */
    @Pausable
    public void sync() {
        Gate mine;
        boolean last;
        synchronized (this) {
            checkHealthy();
            if (enrolled == 0) {
                throw new IllegalStateException("sync() on barrier '" + name + "' with no enrolled process here");
            }
            mine = gate;
            arrived++;
            last = arrived == enrolled;
            if (last) {
                closeRound();
            }
        }
        if (last) {
            signal(BarrierCoordinator.ARRIVE + " 0");
        }
        try {
            mine.tokens.in().read();
        } catch (PoisonException e) {
            throw failure(e);
        }
    }

    /** Every local party of this round has arrived: its gate waits for the coordinator's release. */
    private void closeRound() {
        gate.parties = arrived;
        releasing = gate;
        gate = new Gate();
        arrived = 0;
    }

    /** Tells the coordinator {@code news} about this node; a failure poisons this end. */
    @Pausable
    private void signal(String news) {
        try {
            coordinator.write(news + " " + me);
        } catch (PoisonException e) {
            fail(e);
            throw failure(e);
        }
    }

    /** This node's release reader: opens the gate of each round the coordinator releases, until poisoned. */
    private void releaseRounds(ChannelInput<Boolean> releases) {
        try {
            for (;;) {
                releases.read();
                Gate g;
                synchronized (this) {
                    g = releasing;
                    releasing = null;
                }
                for (int i = 0; i < g.parties; i++) {
                    Extensions.offer(g.tokens.out(), Boolean.TRUE);
                }
            }
        } catch (PoisonException e) {
            fail(e);
        }
    }

    private void fail(PoisonException cause) {
        Gate[] gates;
        synchronized (this) {
            if (failure == null) {
                failure = cause instanceof LinkLostException ? cause
                        : new PoisonException("barrier '" + name + "' is poisoned: " + cause.getMessage());
            }
            gates = new Gate[] {gate, releasing};
        }
        for (Gate g : gates) {
            if (g != null) {
                g.tokens.out().poison();
            }
        }
    }

    private synchronized PoisonException failure(PoisonException fallback) {
        return failure != null ? failure : fallback;
    }

    private void checkHealthy() {
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public String toString() {
        return "net barrier '" + name + "' at " + me;
    }

    /** Where one round's parties of this node wait: a token each when the round is released. */
    private static final class Gate {
        final Any2AnyChannel<Boolean> tokens = Channel.any2any(ChannelBuffer.unbounded());
        int parties;

        Gate() {
            Extensions.usedFromOutside(tokens.in()); // opened by the release reader: a waiting party is no deadlock
        }
    }
}
