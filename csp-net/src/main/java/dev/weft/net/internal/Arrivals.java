package dev.weft.net.internal;

import dev.weft.csp.PoisonException;
import dev.weft.csp.spi.Extensions;
import dev.weft.net.codec.TypeNotAllowedException;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What comes to one net input from the network, on the node's event loop: each remote writing lane's values,
 * taken in that lane's order, and its withdrawals. A lane's values come numbered once the input has moved (by
 * way of old homes, or straight from writers that were told where it lives): one that comes early waits, held,
 * for its predecessors. Values go to the input's local channel; a moving input that comes as a value is brought
 * to life here ({@link InputMove#adopt}).
 *
 * <p>Everything here is under the monitor of the input, which its reader's claim and its move share. The hot
 * path (an input that never moved, a writer that writes again) allocates one envelope per value and takes the
 * monitor once; the value is decoded before and offered to the readers after it.
 */
final class Arrivals {
    private static final System.Logger LOG = System.getLogger(NetInput.class.getName());
    /** What {@link #take} returns for a value withdrawn on its way: nothing to offer. */
    private static final Envelope NOTHING = new Envelope(null, null);
    private static final VarHandle OFFERED;

    static {
        try {
            OFFERED = MethodHandles.lookup().findVarHandle(Arrivals.class, "offered", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final NetInput<?> input;
    /** Remote writers by link and lane. */
    private final Map<Link, Map<Long, RemoteWriter>> writers = new HashMap<>();
    /** The writer of the value that arrived last: a stream's next value most likely comes from it too. */
    private RemoteWriter latest;
    /** Envelopes an arrival took under the lock and offers after it. */
    private long handedOut;
    /**
     * Of those, the ones offered (by {@link #OFFERED}, from the node's one event loop, where every arrival
     * runs): a move waits until it has them all in the channel.
     */
    @SuppressWarnings("unused")
    private volatile long offered;

    Arrivals(NetInput<?> input) {
        this.input = input;
    }

    /**
     * A value ({@code kind} {@link Protocol#VALUE}, its bytes {@code body}) or a moving input
     * ({@link Protocol#MOVING_END}, its image) from lane {@code lane} of the writer across {@code writer}, the
     * lane's value number {@code seq} (0: the next, for a value straight from the writer to the input's first
     * home), which came over {@code via} (the writer's link, or an old home's).
     */
    void arrived(Link writer, long lane, long seq, byte kind, byte[] body, Link via) {
        Object value = null;
        if (kind == Protocol.VALUE && input.moved == null) {
            value = decodeOrRefuse(body, writer, lane, via); // outside the lock: the one costly part
            if (value == null) {
                return;
            }
        }
        Envelope toOffer = null;
        synchronized (input) {
            Forwarder f = input.moved;
            RemoteWriter w = latest;
            if (w == null || w.link != writer || w.lane != lane) {
                w = writer(writer, lane);
                latest = w;
            }
            if (f != null) {
                f.forward(w, seq != 0 ? seq : ++w.arrived, kind, body);
                return;
            }
            if (input.failure != null || input.closed) {
                writer.send(new Frame(Protocol.POISON_LANE, lane, input.failure != null ? Protocol.POISONED : Protocol.CLOSED));
                if (kind != Protocol.MOVING_END) {
                    return;
                }
            } else if (seq != 0 && seq != w.arrived + 1) {
                early(w, seq, kind, body, via);
                return;
            } else {
                Envelope e = take(w, kind, value, body, via);
                if (e == null) {
                    return;
                }
                w.arrived++;
                if (w.held != null) {
                    offer(e);
                    takeHeld(w, via);
                    return;
                }
                if (e == NOTHING) {
                    return;
                }
                toOffer = e;
                handedOut++;
            }
        }
        if (toOffer != null) { // outside the lock, as a reader's claim needs it: a move waits for this offer
            try {
                Extensions.offer(input.out, toOffer); // false only if poisoned meanwhile (the buffer is unbounded)
            } finally {
                OFFERED.setRelease(this, (long) OFFERED.get(this) + 1); // only the node's event loop writes it
            }
            return;
        }
        InputMove.lostInMove(input, body, via); // the channel it came on is poisoned or closed: lost with it
    }

    /** Waits until every value an arrival took is in the input's channel (one offer at most, outside the lock). */
    void awaitOffers() {
        while ((long) OFFERED.getVolatile(this) != handedOut) {
            Thread.onSpinWait(); // an arrival is offering a value it took before: one offer, no lock
        }
    }

    private void offer(Envelope e) {
        if (e != NOTHING) {
            Extensions.offer(input.out, e);
        }
    }

    /**
     * Takes {@code w}'s next value in order: returns its envelope, to offer to the readers, or {@link #NOTHING}
     * if it was withdrawn on its way, or null if its link was refused.
     */
    private Envelope take(RemoteWriter w, byte kind, Object value, byte[] body, Link via) {
        boolean withdrawn = w.withdrawn == w.arrived + 1; // by its cancelled writer, on the way
        if (withdrawn) {
            w.withdrawn = 0;
            if (kind == Protocol.VALUE) {
                w.link.send(new Frame(Protocol.WITHDRAWN, w.lane, 0));
                return NOTHING;
            }
        }
        if (w.unread + w.heldCount() >= input.window) {
            via.refuse("writer " + w.lane + " on " + w.link.peer() + " sent more values to " + input.location
                    + " than its credit (" + input.window + ")");
            return null;
        }
        if (kind == Protocol.MOVING_END) {
            try {
                value = InputMove.adopt(input.endpoints, body);
            } catch (RuntimeException e) {
                via.refuse("a net input moving to " + input.location + " that this node refuses: " + e.getMessage());
                return null;
            }
        }
        Envelope e = new Envelope(value, w);
        if (withdrawn) { // a moving input cannot be taken back: it has moved
            e.answered = true;
            w.link.send(new Frame(Protocol.ACK, w.lane, 0));
        } else {
            w.unread++;
            w.last = e;
        }
        boolean first = !w.opened;
        w.opened = true;
        if (input.capacity > 0 && first) { // before the value can be read, so that the reader's credit comes after it
            w.link.send(new Frame(Protocol.OPENED, w.lane, input.capacity));
        }
        return e;
    }

    /** {@code w}'s value {@code seq} came before its predecessors (by a shorter way): it waits for them. */
    private void early(RemoteWriter w, long seq, byte kind, byte[] body, Link via) {
        if (seq <= w.arrived || w.unread + w.heldCount() >= input.window
                || (w.held != null && w.held.containsKey(seq))) {
            via.refuse("writer " + w.lane + " on " + w.link.peer() + " sent value " + seq + " to " + input.location
                    + " twice, or beyond its credit");
            return;
        }
        w.hold(new Parcel(kind, seq, null, body));
    }

    /** Takes {@code w}'s values that waited for the one just taken. */
    private void takeHeld(RemoteWriter w, Link via) {
        for (Parcel p; (p = w.held.remove(w.arrived + 1)) != null; ) {
            Object value = null;
            if (p.kind() == Protocol.VALUE) {
                value = decodeOrRefuse(p.body(), w.link, w.lane, via);
                if (value == null) {
                    return;
                }
            }
            Envelope e = take(w, p.kind(), value, p.body(), via);
            if (e == null) {
                return;
            }
            offer(e);
            w.arrived++;
        }
    }

    /**
     * The value in {@code body} from lane {@code lane} across {@code writer}; null if refused: a type this node
     * does not allow fails this channel (a mismatch of configurations), anything else the link {@code via}.
     */
    private Object decodeOrRefuse(byte[] body, Link writer, long lane, Link via) {
        try {
            return input.endpoints.decode(body);
        } catch (TypeNotAllowedException e) {
            String why = "the net channel " + input.location + " received from " + writer.peer() + " a value of "
                    + e.getMessage() + ": allow its type on this node too (Node.builder().allow(...)); the writer's"
                    + " error names it. The channel is poisoned; the link and its other channels go on";
            LOG.log(System.Logger.Level.WARNING, why);
            writer.send(new Frame(Protocol.POISON_LANE, lane, Protocol.TYPE_NOT_ALLOWED, Protocol.wireId(e.wireId())));
            input.fail(new PoisonException(why));
            return null;
        } catch (RuntimeException e) {
            via.refuse("a value for " + input.location + " that this node's codec refuses: " + e.getMessage());
            return null;
        }
    }

    /** The record of lane {@code lane} on {@code link}, made on its first value. */
    RemoteWriter writer(Link link, long lane) {
        Map<Long, RemoteWriter> ofLink = writers.get(link);
        if (ofLink == null) {
            ofLink = new HashMap<>();
            writers.put(link, ofLink);
            input.endpoints.uses(link, input);
        }
        RemoteWriter w = ofLink.get(lane);
        if (w == null) {
            w = new RemoteWriter(link, lane);
            ofLink.put(lane, w);
        }
        return w;
    }

    /**
     * A cancelled writer asks to take back its unread value, number {@code seq} of its lane (0: its last). On
     * a synchronous input it gets it back, with an answer, unless the reader took it first (then the read's
     * answer stands); a value still on its way is withdrawn when it comes. On a buffered input its value was
     * in the buffer, so the write had happened: nothing changes. A moving input cannot be taken back (it has
     * moved): its writer is answered as if it was read.
     */
    void withdraw(Link link, long lane, long seq) {
        if (input.capacity > 0) {
            return;
        }
        boolean wasEnd;
        RemoteWriter w;
        synchronized (input) {
            Map<Long, RemoteWriter> ofLink = writers.get(link);
            w = ofLink == null ? null : ofLink.get(lane);
            Forwarder f = input.moved;
            if (f != null) {
                if (w != null) {
                    f.forward(w, seq != 0 ? seq : w.arrived, Protocol.WITHDRAWAL, new byte[0]);
                }
                return;
            }
            if (w != null && seq > w.arrived) {
                w.withdrawn = seq;
                return;
            }
            Envelope e = w == null ? null : w.last;
            if (e == null || e.taken || (seq != 0 && seq != w.arrived)) {
                return;
            }
            wasEnd = e.value instanceof NetInput;
            if (wasEnd) {
                e.answered = true;
            } else {
                e.withdrawn = true;
            }
            w.last = null;
            w.unread--;
        }
        w.link.send(new Frame(wasEnd ? Protocol.ACK : Protocol.WITHDRAWN, lane, 0));
    }

    // ------------------------------------------------------------------ for the input and its move, under its monitor

    /** Every writer known. */
    List<RemoteWriter> writers() {
        List<RemoteWriter> all = new ArrayList<>();
        for (Map<Long, RemoteWriter> ofLink : writers.values()) {
            all.addAll(ofLink.values());
        }
        return all;
    }

    /** Whether a writer across {@code link} has written. */
    boolean writeOver(Link link) {
        return writers.containsKey(link);
    }

    /** Whether a value came early and waits for a predecessor (which may be lost). */
    boolean waitForAny() {
        for (Map<Long, RemoteWriter> ofLink : writers.values()) {
            for (RemoteWriter w : ofLink.values()) {
                if (w.heldCount() > 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The node across {@code link} closed in order: its writers are forgotten, and on a synchronous input their
     * unread values dropped (their writes failed as their node closed); a buffered input's stay, as their writes
     * had completed.
     */
    void peerClosed(Link link) {
        Map<Long, RemoteWriter> ofLink = writers.remove(link);
        if (latest != null && latest.link == link) {
            latest = null;
        }
        if (ofLink != null && input.capacity == 0) {
            for (RemoteWriter w : ofLink.values()) {
                if (w.last != null && !w.last.taken) {
                    w.last.withdrawn = true;
                }
            }
        }
    }

    /** The link {@code link} to a node the input's forwarding pointer knew is gone: its writers there are forgotten. */
    void forget(Link link) {
        Map<Long, RemoteWriter> ofLink = writers.remove(link);
        if (ofLink != null && latest != null && latest.link == link) {
            latest = null;
        }
    }

    /** The input has left: the next arrival looks its writer up. */
    void moved() {
        latest = null;
    }
}
