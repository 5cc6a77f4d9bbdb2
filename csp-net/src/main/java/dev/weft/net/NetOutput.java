package dev.weft.net;

import dev.weft.csp.ChannelClosedException;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An output to a net input at {@link #location()}, on this node or another; it connects lazily, on its first
 * write. Each concurrent writer uses a {@link Lane} of its own (one, for a one-writer output), so a shared
 * output needs no turn-taking: the input answers each lane. A lane left waiting by a cancelled writer is
 * dropped, never reused, so a late answer cannot be mistaken for another write's.
 */
final class NetOutput<T> implements NetChannelOutput<T>, NetSharedChannelOutput<T>, LinkUser {
    private final Endpoints endpoints;
    private final NetChannelLocation target;
    private volatile RuntimeException failure;
    private volatile Link link;
    /** Set by {@link #close()}: later writes through this end throw; writes already under way go on. */
    private volatile boolean closed;
    // Under this object's monitor.
    private final List<Lane> idle = new ArrayList<>(1);
    private final List<Lane> live = new ArrayList<>(1);

    NetOutput(Endpoints endpoints, NetChannelLocation target) {
        this.endpoints = endpoints;
        this.target = target;
    }

    @Override
    public NetChannelLocation location() {
        return target;
    }

    @Override
    @Pausable
    public void write(T value) {
        Objects.requireNonNull(value, "cannot write null to a net channel");
        checkFailure();
        if (closed) {
            throw new ChannelClosedException("the net channel to " + target + " is closed");
        }
        byte[] bytes = endpoints.encode(value);
        Lane lane = takeLane();
        try {
            lane.deliver(link(), target.id(), bytes);
        } finally {
            giveBack(lane);
        }
    }

    /** A connection client's transaction: sends {@code request}, then waits for the server's reply. */
    @Pausable
    Object request(Object request) {
        Objects.requireNonNull(request, "cannot send a null request");
        checkFailure();
        byte[] bytes = endpoints.encode(request);
        Lane lane = takeLane();
        try {
            lane.deliver(link(), target.id(), bytes);
            return lane.awaitReply();
        } finally {
            giveBack(lane);
        }
    }

    @Override
    public void poison() {
        fail(new PoisonException("the net channel to " + target + " was poisoned by its writer"));
        Link l = link();
        l.send(new Frame(Protocol.POISON_INPUT, target.id(), 0));
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed || failure != null) {
                return;
            }
            closed = true;
        }
        link().send(new Frame(Protocol.CLOSE_INPUT, target.id(), 0));
    }

    /** Throws this output's failure, if it has one. */
    void checkFailure() {
        RuntimeException f = failure;
        if (f != null) {
            throw Failures.fresh(f);
        }
    }

    @Override
    public void linkLost(Link lost, LinkLostException e, boolean peerClosed) {
        fail(e);
    }

    /** Fails this output for good with {@code e}, waking its waiting writers. */
    void fail(RuntimeException e) {
        List<Lane> toWake;
        synchronized (this) {
            if (failure != null) {
                return;
            }
            failure = e;
            toWake = new ArrayList<>(live);
        }
        for (Lane l : toWake) {
            l.failed();
        }
    }

    /** The link to the target's node, made on first use; a write reads it without the lock once it is there. */
    private Link link() {
        Link l = link;
        if (l != null) {
            return l;
        }
        synchronized (this) {
            if (link == null) {
                Link made = endpoints.link(target.node());
                endpoints.uses(made, this);
                link = made;
            }
            return link;
        }
    }

    private Lane takeLane() {
        Lane fresh;
        synchronized (this) {
            if (!idle.isEmpty()) {
                return idle.remove(idle.size() - 1);
            }
            fresh = endpoints.newLane(this);
            live.add(fresh);
        }
        if (failure != null) {
            fresh.failed(); // failed while it was made: fail() did not see it
        }
        return fresh;
    }

    private void giveBack(Lane lane) {
        boolean spent = lane.isSpent();
        synchronized (this) {
            if (!spent) {
                idle.add(lane);
                return;
            }
            live.remove(lane);
        }
        endpoints.forget(lane);
    }

    @Override
    public String toString() {
        return "net output to " + target;
    }
}
