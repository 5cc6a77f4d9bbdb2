package dev.weft.net.internal;

import dev.weft.csp.AltingChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.ForwardingGuard;
import dev.weft.csp.Guard;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.spi.Extensions;
import dev.weft.net.LinkLostException;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import java.util.List;

/**
 * A net input: values that remote writers send arrive, on an event loop, in a local channel with an unbounded
 * buffer, which the credit protocol bounds ({@link Protocol}); readers read that channel. A synchronous
 * input answers a value when it is read, so its writer returns only then; a buffered one gives credit back as
 * values are read. This class is the reader's side: reading, answering and failing. What comes from the
 * network, in each writer's order, is its {@link Arrivals}; moving to another node, its {@link InputMove}.
 *
 * <p>Its monitor orders the three: an arrival, a read's claim, a withdrawal and a move each hold it while they
 * change what the input knows of its writers.
 */
abstract class NetInput<T> implements LinkUser, ForwardingGuard {
    final NetChannelLocation location;
    /** Its name on this node: its location's id on its first home, a new one on each node it moves to. */
    final long localId;
    final Endpoints endpoints;
    final int capacity; // 0: synchronous
    /** Values a writer may have unread: one on a synchronous input, capacity on a buffered one. */
    final int window;
    /** How many times it had moved when it came to this node. */
    final long moves;
    final AltingChannelInput<Envelope> in;
    final ChannelOutput<Envelope> out;
    final Arrivals arrivals;
    final InputMove move;
    volatile RuntimeException failure;
    /** Closed by a writer: values that arrive later are refused. Under this object's monitor. */
    boolean closed;
    /** Set once the input has left this node; volatile: a value's arrival reads it before the lock. */
    volatile Forwarder moved;

    NetInput(Endpoints endpoints, NetChannelLocation location, long localId, int capacity, long moves,
             AltingChannelInput<Envelope> in, ChannelOutput<Envelope> out) {
        this.endpoints = endpoints;
        this.location = location;
        this.localId = localId;
        this.capacity = capacity;
        this.window = Math.max(1, capacity);
        this.moves = moves;
        this.in = in;
        this.out = out;
        this.arrivals = new Arrivals(this);
        this.move = new InputMove(this);
        Extensions.usedFromOutside(in); // remote writers may still come: a waiting reader is never a deadlock
    }

    public NetChannelLocation location() {
        return location;
    }

    /** Whether a value has arrived (possibly one its cancelled writer is withdrawing: see docs/net.md). */
    public boolean pending() {
        checkHere();
        return in.pending();
    }

    /** As a guard, the input is its local channel: ready when a value has arrived. */
    @Override
    public Guard guard() {
        return in;
    }

    @Pausable
    @SuppressWarnings("unchecked")
    public T read() {
        return (T) take().value;
    }

    /** Reads the next value with the writer it came from, and answers that writer. */
    @Pausable
    Envelope take() {
        for (;;) {
            Envelope e;
            try {
                e = in.read();
            } catch (PoisonException p) {
                checkHere();
                RuntimeException failed = failure;
                throw failed != null ? Failures.fresh(failed) : p;
            }
            long credit = claim(e);
            if (credit >= 0) {
                RemoteWriter w = e.writer;
                if (capacity == 0) {
                    w.link.send(new Frame(Protocol.ACK, w.lane, 0));
                } else if (credit > 0) {
                    w.link.send(new Frame(Protocol.CREDIT, w.lane, credit));
                }
                return e;
            }
            if (credit == ANSWERED) {
                return e;
            }
            // withdrawn by its cancelled writer: not delivered, read on
        }
    }

    private static final long WITHDRAWN = -1;
    private static final long ANSWERED = -2;

    /**
     * Takes {@code e} unless its writer withdrew it ({@link #WITHDRAWN}). On a buffered input, returns the
     * credit to give its writer back now: credit is returned in batches of half the capacity, which cannot
     * starve a writer: one that waits for credit has its whole window unread or owed, so once its values are
     * read, at least half the capacity is owed. A value taken by a reader that raced the input's move (its
     * read began before) is answered at once: its writer's record has moved on without it.
     */
    private synchronized long claim(Envelope e) {
        if (e.withdrawn) {
            return WITHDRAWN;
        }
        e.taken = true;
        if (e.answered) {
            return ANSWERED;
        }
        RemoteWriter w = e.writer;
        if (moved != null) {
            return 1;
        }
        w.unread--;
        if (w.last == e) {
            w.last = null;
        }
        if (capacity == 0 || ++w.owed < Math.max(1, capacity / 2)) {
            return 0;
        }
        long credit = w.owed;
        w.owed = 0;
        return credit;
    }

    /** Poisons the channel: this end, and every remote writer that has written to it. */
    public void poison() {
        checkHere();
        fail(new PoisonException("the net channel " + location + " was poisoned by its reader"));
    }

    /** Throws, saying where it went, if the input has moved away from this node: its old end is of no use. */
    private void checkHere() {
        Forwarder f = moved;
        if (f != null) {
            throw f.moved();
        }
    }

    // ------------------------------------------------------------------ from the network, on an event loop

    /**
     * A writer closed the channel: what has arrived is still read, then readers see the end; values that
     * arrive later are refused, their writers told that the channel is closed.
     */
    void closedBy(Link link) {
        synchronized (this) {
            Forwarder f = moved;
            if (f != null) {
                f.signal(Protocol.CLOSE_INPUT);
                return;
            }
            if (failure != null || closed) {
                return;
            }
            closed = true;
        }
        out.close();
    }

    /** A remote writer poisoned the channel. */
    void poisonedBy(Link link) {
        synchronized (this) {
            Forwarder f = moved;
            if (f != null) {
                f.signal(Protocol.POISON_INPUT);
                return;
            }
        }
        fail(new PoisonException("the net channel " + location + " was poisoned by a writer on " + link.peer()));
    }

    /**
     * A link this input received from is gone. If it failed, so does this input: a value may have been lost
     * with it, and a reader must not wait for ever for a writer that died. If the peer's node closed in
     * order, as a local writer that ends, this input goes on; the unread values of the writers there (whose
     * writes failed as their node closed) are dropped. A link that only brought values forwarded by an old
     * home fails the input only if a value is missing (a later one of its writer waits for it). On an old
     * home, losing the link to the input's home fails its forwarding pointer (see {@link InputMove#linkLost}).
     */
    @Override
    public void linkLost(Link link, LinkLostException e, boolean peerClosed) {
        Forwarder f = moved;
        if (f != null) {
            move.linkLost(f, link, e);
            return;
        }
        boolean writesHere;
        boolean missing;
        synchronized (this) {
            writesHere = arrivals.writeOver(link);
            missing = arrivals.waitForAny();
        }
        if (!writesHere) {
            if (missing && !peerClosed) {
                fail(e);
            }
            return;
        }
        if (!peerClosed) {
            fail(e);
            return;
        }
        synchronized (this) {
            arrivals.peerClosed(link);
        }
    }

    /** Fails this input for good with {@code e}: readers throw it; remote writers are told it is poisoned. */
    void fail(RuntimeException e) {
        fail(e, true);
    }

    /**
     * Fails this input for good as its node closes: its remote writers are not told, since the goodbye that
     * closes their links tells them more (their ends fail with {@link LinkLostException}).
     */
    void close(RuntimeException e) {
        fail(e, false);
    }

    private void fail(RuntimeException e, boolean tellWriters) {
        List<RemoteWriter> toTell;
        Forwarder f;
        synchronized (this) {
            f = moved;
            if (f != null ? !f.fail(asLost(e)) : failure != null) {
                return;
            }
            if (f == null) {
                failure = e;
            }
            toTell = tellWriters ? arrivals.writers() : List.of();
        }
        if (f == null) {
            in.poison();
        }
        long why = f != null ? Protocol.LOST : Protocol.POISONED;
        for (RemoteWriter w : toTell) {
            w.link.send(new Frame(Protocol.POISON_LANE, w.lane, why));
        }
    }

    /** What a forwarding pointer fails with: its input is out of reach from here, as with a lost link. */
    private RuntimeException asLost(RuntimeException e) {
        return e instanceof LinkLostException ? e
                : new LinkLostException("the net channel " + location + " moved away from a node that failed: "
                + e.getMessage());
    }

    @Override
    public String toString() {
        return "net input " + location;
    }
}
