package dev.weft.net.internal;

import dev.weft.csp.ChannelClosedException;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.net.LinkLostException;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.NetSharedChannelOutput;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An output to a net input at {@link #location()}, on this node or another; it connects lazily, on its first
 * write. Each concurrent writer uses a {@link Lane} of its own (one, for a one-writer output), so a shared
 * output needs no turn-taking: the input answers each lane. A lane left waiting by a cancelled writer is
 * dropped, never reused, so a late answer cannot be mistaken for another write's.
 *
 * <p>One idle lane waits in {@link #spare}, taken and given back with a compare-and-set: a writer that writes
 * alone (the common case) never takes this object's monitor once its lane is made. Further idle lanes, for
 * writers that overlap, wait in {@link #idle}, under the monitor. Every lane made, idle or not, is in
 * {@link #live} until it is spent.
 */
final class NetOutput<T> implements NetChannelOutput<T>, NetSharedChannelOutput<T>, LinkUser {
    private static final VarHandle SPARE;

    static {
        try {
            SPARE = MethodHandles.lookup().findVarHandle(NetOutput.class, "spare", Lane.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Endpoints endpoints;
    private final NetChannelLocation target;
    private volatile RuntimeException failure;
    /** Where values go: the input's location until it moves, then its newest home known. Made on first use. */
    private volatile Route route;
    /** Set by {@link #close()}: later writes through this end throw; writes already under way go on. */
    private volatile boolean closed;
    /** An idle lane, or null: the one-writer fast path (see the class comment). */
    @SuppressWarnings("unused") // by SPARE
    private volatile Lane spare;
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
        if (value instanceof NetInput) {
            writeEnd((NetInput<?>) value);
            return;
        }
        byte[] bytes = endpoints.encode(value);
        route();
        Lane lane = takeLane();
        try {
            lane.deliver(bytes);
        } finally {
            giveBack(lane);
        }
    }

    /** Moves {@code moving} to the node that reads this channel (see docs/net.md, "Mobile inputs"). */
    @Pausable
    private void writeEnd(NetInput<?> moving) {
        if (moving instanceof NetSharedInput) {
            throw new IllegalArgumentException("a net2any input cannot move (its readers are on its node);"
                    + " move a net2one input");
        }
        if (moving.location.equals(target)) {
            throw new IllegalArgumentException("cannot write the net input " + target + " to its own channel");
        }
        route();
        Lane lane = takeLane();
        try {
            lane.deliverEnd(moving, target);
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
        route();
        Lane lane = takeLane();
        try {
            lane.deliver(bytes);
            return lane.awaitReply();
        } finally {
            giveBack(lane);
        }
    }

    @Override
    public void poison() {
        fail(new PoisonException("the net channel to " + target + " was poisoned by its writer"));
        Route r = route();
        r.link().send(new Frame(Protocol.POISON_INPUT, r.inputId(), 0));
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed || failure != null) {
                return;
            }
            closed = true;
        }
        Route r = route();
        r.link().send(new Frame(Protocol.CLOSE_INPUT, r.inputId(), 0));
    }

    /** Whether this output has failed (for good). */
    boolean hasFailed() {
        return failure != null;
    }

    /** Throws this output's failure, if it has one. */
    void checkFailure() {
        RuntimeException f = failure;
        if (f != null) {
            throw Failures.fresh(f);
        }
    }

    /**
     * A link this output used is gone. If it was the way to the input, the output fails. If the input has
     * moved on since, an old home is gone: that costs nothing if it closed in order (it sent on what it had
     * first), or if every value sent its way was answered; else a value may have been lost with it.
     */
    @Override
    public void linkLost(Link lost, LinkLostException e, boolean peerClosed) {
        Route r = route;
        if (r != null && r.link() != lost && (peerClosed || settledOffRoute())) {
            return;
        }
        fail(e);
    }

    /** Whether every value sent to an old home of the input was answered (from its newest home). */
    boolean settledOffRoute() {
        Route r = route;
        List<Lane> lanes;
        synchronized (this) {
            lanes = new ArrayList<>(live);
        }
        for (Lane l : lanes) {
            if (!l.settledOffRoute(r)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The input has moved: it lives at {@code home} after {@code moves} moves. Values from now on go there
     * directly (an old home may be told so again: only news changes the route).
     */
    void redirect(long moves, NetChannelLocation home) {
        Link l;
        synchronized (this) {
            Route r = route;
            if (r == null || moves <= r.moves() || failure != null) {
                return;
            }
            try {
                l = endpoints.link(home.node());
            } catch (RuntimeException closing) {
                return; // this node is closed: its ends fail
            }
            route = new Route(moves, l, home.id());
        }
        endpoints.uses(l, this);
    }

    /** The route that the next value takes (made by {@link #route()} before any lane sends). */
    Route currentRoute() {
        return route;
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

    /** The route to the input, made on first use; a write reads it without the lock once it is there. */
    private Route route() {
        Route r = route;
        if (r != null) {
            return r;
        }
        Link made;
        synchronized (this) {
            if (route != null) {
                return route;
            }
            made = endpoints.link(target.node());
            route = r = new Route(0, made, target.id());
        }
        endpoints.uses(made, this);
        return r;
    }

    private Lane takeLane() {
        Lane s = spare;
        if (s != null && SPARE.compareAndSet(this, s, null)) {
            return s;
        }
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
        if (!spent && spare == null && SPARE.compareAndSet(this, null, lane)) {
            return;
        }
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
