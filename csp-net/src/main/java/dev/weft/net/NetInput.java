package dev.weft.net;

import dev.weft.csp.AltingChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.Extensions;
import dev.weft.csp.ForwardingGuard;
import dev.weft.csp.Guard;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A net input: values that remote writers send arrive, on an event loop, in a local channel with an unbounded
 * buffer, which the credit protocol bounds ({@link Protocol}); readers read that channel. A synchronous
 * input answers a value when it is read, so its writer returns only then; a buffered one says it is buffered
 * when the first value of a writer arrives, and gives credit back as values are read.
 */
abstract class NetInput<T> implements LinkUser, ForwardingGuard {
    final NetChannelLocation location;
    private final Endpoints endpoints;
    private final int capacity; // 0: synchronous
    private final int window; // values a writer may have unread: one on a synchronous input, capacity on a buffered
    private final AltingChannelInput<Envelope> in;
    private final ChannelOutput<Envelope> out;
    /** Remote writers by link and lane; under this object's monitor. */
    private final Map<Link, Map<Long, RemoteWriter>> writers = new HashMap<>();
    /** The writer of the value that arrived last: a stream's next value most likely comes from it too. */
    private RemoteWriter latest;
    private volatile RuntimeException failure;
    /** Closed by a writer: values that arrive later are refused. Under this object's monitor. */
    private boolean closed;

    NetInput(Endpoints endpoints, NetChannelLocation location, int capacity, AltingChannelInput<Envelope> in,
             ChannelOutput<Envelope> out) {
        this.endpoints = endpoints;
        this.location = location;
        this.capacity = capacity;
        this.window = Math.max(1, capacity);
        this.in = in;
        this.out = out;
        Extensions.usedFromOutside(in); // remote writers may still come: a waiting reader is never a deadlock
    }

    public NetChannelLocation location() {
        return location;
    }

    /** Whether a value has arrived (possibly one its cancelled writer is withdrawing: see docs/net.md). */
    public boolean pending() {
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
                RuntimeException f = failure;
                throw f != null ? Failures.fresh(f) : p;
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
            // withdrawn by its cancelled writer: not delivered, read on
        }
    }

    /**
     * Takes {@code e} unless its writer withdrew it (-1). On a buffered input, returns the credit to give its
     * writer back now: credit is returned in batches of half the capacity, which cannot starve a writer: one
     * that waits for credit has its whole window unread or owed, so once its values are read, at least half
     * the capacity is owed.
     */
    private synchronized long claim(Envelope e) {
        if (e.withdrawn) {
            return -1;
        }
        e.taken = true;
        RemoteWriter w = e.writer;
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
        fail(new PoisonException("the net channel " + location + " was poisoned by its reader"));
    }

    // ------------------------------------------------------------------ from the network, on an event loop

    /** {@code value} came from lane {@code lane} over {@code link}. */
    void arrived(Link link, long lane, Object value) {
        RemoteWriter w;
        boolean first;
        Envelope e;
        synchronized (this) {
            if (failure != null || closed) {
                link.send(new Frame(Protocol.POISON_LANE, lane, failure != null ? Protocol.POISONED : Protocol.CLOSED));
                return;
            }
            w = latest;
            if (w == null || w.link != link || w.lane != lane) {
                w = writer(link, lane);
                latest = w;
            }
            if (w.unread >= window) {
                link.refuse("writer " + lane + " on " + link.peer() + " sent more values to " + location
                        + " than its credit (" + window + ")");
                return;
            }
            w.unread++;
            first = !w.opened;
            w.opened = true;
            e = new Envelope(value, w);
            w.last = e;
        }
        if (capacity > 0 && first) { // before the value can be read, so that the reader's credit comes after it
            link.send(new Frame(Protocol.OPENED, lane, capacity));
        }
        Extensions.offer(out, e); // false only if poisoned meanwhile (the buffer is unbounded): writers are told
    }

    /** The record of lane {@code lane} on {@code link}, made on its first value. Under this object's monitor. */
    private RemoteWriter writer(Link link, long lane) {
        Map<Long, RemoteWriter> ofLink = writers.get(link);
        if (ofLink == null) {
            ofLink = new HashMap<>();
            writers.put(link, ofLink);
            endpoints.uses(link, this);
        }
        RemoteWriter w = ofLink.get(lane);
        if (w == null) {
            w = new RemoteWriter(link, lane);
            ofLink.put(lane, w);
        }
        return w;
    }

    /**
     * A cancelled writer asks to take back its unread value. On a synchronous input it gets it back, with an
     * answer, unless the reader took it first (then the read's answer stands). On a buffered input its value
     * was in the buffer, so the write had happened: nothing changes.
     */
    void withdraw(Link link, long lane) {
        if (capacity > 0) {
            return;
        }
        synchronized (this) {
            Map<Long, RemoteWriter> ofLink = writers.get(link);
            RemoteWriter w = ofLink == null ? null : ofLink.get(lane);
            Envelope e = w == null ? null : w.last;
            if (e == null || e.taken) {
                return;
            }
            e.withdrawn = true;
            w.last = null;
            w.unread--;
        }
        link.send(new Frame(Protocol.WITHDRAWN, lane, 0));
    }

    /**
     * A writer closed the channel: what has arrived is still read, then readers see the end; values that
     * arrive later are refused, their writers told that the channel is closed.
     */
    void closedBy(Link link) {
        synchronized (this) {
            if (failure != null || closed) {
                return;
            }
            closed = true;
        }
        out.close();
    }

    /** A remote writer poisoned the channel. */
    void poisonedBy(Link link) {
        fail(new PoisonException("the net channel " + location + " was poisoned by a writer on " + link.peer()));
    }

    /**
     * A link this input received from is gone. If it failed, so does this input: a value may have been lost
     * with it, and a reader must not wait for ever for a writer that died. If the peer's node closed in
     * order, as a local writer that ends, this input goes on; the unread values of the writers there (whose
     * writes failed as their node closed) are dropped.
     */
    @Override
    public void linkLost(Link link, LinkLostException e, boolean peerClosed) {
        if (!peerClosed) {
            fail(e);
            return;
        }
        synchronized (this) {
            Map<Long, RemoteWriter> ofLink = writers.remove(link);
            if (latest != null && latest.link == link) {
                latest = null;
            }
            if (ofLink != null && capacity == 0) { // a buffered input's values stay: their writes had completed
                for (RemoteWriter w : ofLink.values()) {
                    if (w.last != null && !w.last.taken) {
                        w.last.withdrawn = true;
                    }
                }
            }
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
        List<RemoteWriter> toTell = new ArrayList<>();
        synchronized (this) {
            if (failure != null) {
                return;
            }
            failure = e;
            if (tellWriters) {
                for (Map<Long, RemoteWriter> ofLink : writers.values()) {
                    toTell.addAll(ofLink.values());
                }
            }
        }
        in.poison();
        for (RemoteWriter w : toTell) {
            w.link.send(new Frame(Protocol.POISON_LANE, w.lane, Protocol.POISONED));
        }
    }

    @Override
    public String toString() {
        return "net input " + location;
    }
}
