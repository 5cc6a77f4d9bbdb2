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
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A net input: values that remote writers send arrive, on an event loop, in a local channel with an unbounded
 * buffer, which the credit protocol bounds ({@link Protocol}); readers read that channel. A synchronous
 * input answers a value when it is read, so its writer returns only then; a buffered one says it is buffered
 * when the first value of a writer arrives, and gives credit back as values are read.
 *
 * <p>An input can move to another node ({@link #moveOut}): it leaves a {@link Forwarder} here and comes to life
 * there, rebuilt from its {@link EndImage}, with the same location. On a node it moved to, values come
 * numbered by lane, by way of old homes or straight from writers that were told where it lives: each lane's
 * values are taken in order, and one that comes early waits for its predecessors.
 */
abstract class NetInput<T> implements LinkUser, ForwardingGuard {
    private static final System.Logger LOG = System.getLogger(NetInput.class.getName());
    final NetChannelLocation location;
    /** Its name on this node: its location's id on its first home, a new one on each node it moves to. */
    final long localId;
    private final Endpoints endpoints;
    private final int capacity; // 0: synchronous
    private final int window; // values a writer may have unread: one on a synchronous input, capacity on a buffered
    private final long moves; // how many times it had moved when it came to this node
    private final AltingChannelInput<Envelope> in;
    private final ChannelOutput<Envelope> out;
    /** Remote writers by link and lane; under this object's monitor. */
    private final Map<Link, Map<Long, RemoteWriter>> writers = new HashMap<>();
    /** The writer of the value that arrived last: a stream's next value most likely comes from it too. */
    private RemoteWriter latest;
    private volatile RuntimeException failure;
    /** Closed by a writer: values that arrive later are refused. Under this object's monitor. */
    private boolean closed;
    /** Set once the input has left this node; volatile: a value's arrival reads it before the lock. */
    private volatile Forwarder moved;
    /** Envelopes an arrival took under the lock and offers after it; under the monitor. */
    private long handedOut;
    /**
     * Of those, the ones offered (by {@link #OFFERED}, from the node's one event loop, where every arrival
     * runs): a move waits until it has them all in the channel.
     */
    @SuppressWarnings("unused")
    private volatile long offered;

    /** What {@link #take} returns for a value withdrawn on its way: nothing to offer. */
    private static final Envelope NOTHING = new Envelope(null, null);
    private static final VarHandle OFFERED;

    static {
        try {
            OFFERED = MethodHandles.lookup().findVarHandle(NetInput.class, "offered", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

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
        Extensions.usedFromOutside(in); // remote writers may still come: a waiting reader is never a deadlock
    }

    public NetChannelLocation location() {
        return location;
    }

    /** Whether a value has arrived (possibly one its cancelled writer is withdrawing: see docs/net.md). */
    public boolean pending() {
        Forwarder f = moved;
        if (f != null) {
            throw f.moved();
        }
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
                Forwarder f = moved;
                if (f != null) {
                    throw f.moved();
                }
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
        Forwarder f = moved;
        if (f != null) {
            throw f.moved();
        }
        fail(new PoisonException("the net channel " + location + " was poisoned by its reader"));
    }

    // ------------------------------------------------------------------ moving

    /**
     * Leaves this node: from now on this object is the input's forwarding pointer, and any use of it here
     * throws. Returns the image of the input, unread values included, for the node it goes to, over
     * {@code carrierLink} in a write to {@code carrier}.
     *
     * @throws IllegalStateException if a process is reading it now (waiting in a read or an alternative), if
     *                               it has moved already, or if it holds unread inputs itself
     */
    byte[] moveOut(NetChannelLocation carrier, Link carrierLink) {
        EndImage image;
        synchronized (this) {
            Forwarder f = moved;
            if (f != null) {
                throw f.moved();
            }
            if (Extensions.awaited(in)) {
                throw new IllegalStateException("cannot move the net input " + location + " while a process reads"
                        + " it (waiting in a read or in an Alternative)");
            }
            for (Map<Long, RemoteWriter> ofLink : writers.values()) {
                for (RemoteWriter w : ofLink.values()) {
                    if (w.held != null && w.held.values().stream().anyMatch(p -> p.kind() != Protocol.VALUE)) {
                        throw holdsInputs(null);
                    }
                }
            }
            while ((long) OFFERED.getVolatile(this) != handedOut) {
                Thread.onSpinWait(); // an arrival is offering a value it took before: one offer, no lock
            }
            List<Envelope> unread = new ArrayList<>();
            for (Envelope e; (e = Extensions.poll(in)) != null; ) {
                if (!e.withdrawn) {
                    unread.add(e);
                }
            }
            for (Envelope e : unread) {
                if (e.value instanceof NetInput) {
                    for (Envelope back : unread) {
                        Extensions.offer(out, back); // the channel was empty: its order is restored
                    }
                    throw holdsInputs(((NetInput<?>) e.value).location);
                }
            }
            image = image(unread);
            moved = new Forwarder(endpoints, location, moves + 1, carrierLink,
                    "it was written to the net channel " + carrier);
            latest = null;
        }
        in.poison(); // a reader that comes later throws, as the input moved
        endpoints.uses(carrierLink, this); // lost before the new home says where it is: so is the input
        return image.encode();
    }

    private IllegalStateException holdsInputs(NetChannelLocation unread) {
        return new IllegalStateException("cannot move the net input " + location + ": it holds an unread net input"
                + (unread == null ? "" : " (" + unread + ")") + "; read it first");
    }

    /** This input as it leaves, its unread values {@code unread}. Under the monitor. */
    private EndImage image(List<Envelope> unread) {
        Map<RemoteWriter, Integer> index = new IdentityHashMap<>();
        List<EndImage.Writer> ws = new ArrayList<>();
        List<EndImage.Item> held = new ArrayList<>();
        for (Map<Long, RemoteWriter> ofLink : writers.values()) {
            for (RemoteWriter w : ofLink.values()) {
                int i = ws.size();
                index.put(w, i);
                ws.add(new EndImage.Writer(w.link.peer(), w.lane, w.arrived, w.owed, w.opened, w.withdrawn));
                if (w.held != null) {
                    for (Parcel p : w.held.values()) {
                        held.add(new EndImage.Item(i, p.seq(), p.body()));
                    }
                }
            }
        }
        List<EndImage.Item> items = new ArrayList<>(unread.size());
        for (Envelope e : unread) {
            items.add(new EndImage.Item(index.get(e.writer), 0, endpoints.encode(e.value)));
        }
        RuntimeException f = failure;
        return new EndImage(location, moves + 1, new NetChannelLocation(endpoints.address(), localId), capacity,
                f == null ? null : f.getMessage(), f instanceof LinkLostException, closed, ws, items, held);
    }

    /**
     * Rebuilds the input from {@code image} on the node it came to: its writers (answered from here on), its
     * unread values, in order, its poison or close.
     *
     * @throws IllegalArgumentException if this node's codec refuses one of its values
     */
    void restore(EndImage image) {
        List<Object> values = new ArrayList<>(image.unread().size());
        for (EndImage.Item i : image.unread()) {
            values.add(endpoints.decode(i.bytes()));
        }
        List<RemoteWriter> ws = new ArrayList<>(image.writers().size());
        synchronized (this) {
            for (EndImage.Writer iw : image.writers()) {
                RemoteWriter w = writer(endpoints.link(iw.node()), iw.lane());
                w.arrived = iw.arrived();
                w.owed = iw.owed();
                w.opened = iw.opened();
                w.withdrawn = iw.withdrawn();
                ws.add(w);
            }
            for (EndImage.Item i : image.held()) {
                RemoteWriter w = ws.get(i.writer());
                w.hold(new Parcel(Protocol.VALUE, i.seq(), null, i.bytes()));
            }
            for (int k = 0; k < values.size(); k++) {
                RemoteWriter w = ws.get(image.unread().get(k).writer());
                Envelope e = new Envelope(values.get(k), w);
                w.unread++;
                w.last = e;
                Extensions.offer(out, e);
            }
            closed = image.closed();
        }
        if (image.failure() != null) {
            close(image.lost() ? new LinkLostException(image.failure()) : new PoisonException(image.failure()));
        } else if (image.closed()) {
            out.close();
        }
    }

    /** The input now lives at {@code home} after {@code newMoves} moves (said by that node). */
    void homeIs(long newMoves, NetChannelLocation home) {
        Link watch;
        synchronized (this) {
            Forwarder f = moved;
            if (f == null || (watch = f.homeIs(newMoves, home)) == null) {
                return;
            }
            for (Map<Long, RemoteWriter> ofLink : writers.values()) {
                for (RemoteWriter w : ofLink.values()) {
                    if (w.redirectedTo < newMoves) { // sooner than its next value: it may not write here again
                        w.redirectedTo = newMoves;
                        w.link.send(new Frame(Protocol.REDIRECT, w.lane, newMoves, Parcel.home(home.node(), home.id())));
                    }
                }
            }
        }
        endpoints.uses(watch, this);
    }

    // ------------------------------------------------------------------ from the network, on an event loop

    /**
     * A value ({@code kind} {@link Protocol#VALUE}, its bytes {@code body}) or a moving input
     * ({@link Protocol#MOVING_END}, its image) from lane {@code lane} of the writer across {@code writer}, the
     * lane's value number {@code seq} (0: the next, for a value straight from the writer to the input's first
     * home), which came over {@code via} (the writer's link, or an old home's).
     */
    void arrived(Link writer, long lane, long seq, byte kind, byte[] body, Link via) {
        Object value = null;
        if (kind == Protocol.VALUE && moved == null) {
            value = decodeOrRefuse(body, writer, lane, via); // outside the lock: the one costly part
            if (value == null) {
                return;
            }
        }
        Envelope toOffer = null;
        synchronized (this) {
            Forwarder f = moved;
            RemoteWriter w = latest;
            if (w == null || w.link != writer || w.lane != lane) {
                w = writer(writer, lane);
                latest = w;
            }
            if (f != null) {
                f.forward(w, seq != 0 ? seq : ++w.arrived, kind, body);
                return;
            }
            if (failure != null || closed) {
                writer.send(new Frame(Protocol.POISON_LANE, lane, failure != null ? Protocol.POISONED : Protocol.CLOSED));
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
                Extensions.offer(out, toOffer); // false only if poisoned meanwhile (the buffer is unbounded)
            } finally {
                OFFERED.setRelease(this, (long) OFFERED.get(this) + 1); // only the node's event loop writes it
            }
            return;
        }
        lostInMove(body, via); // the channel it came on is poisoned or closed: it is lost with it
    }

    private void offer(Envelope e) {
        if (e != NOTHING) {
            Extensions.offer(out, e);
        }
    }

    /**
     * Takes {@code w}'s next value in order: returns its envelope, to offer to the readers, or {@link #NOTHING}
     * if it was withdrawn on its way, or null if its link was refused. Under the monitor.
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
        if (w.unread + w.heldCount() >= window) {
            via.refuse("writer " + w.lane + " on " + w.link.peer() + " sent more values to " + location
                    + " than its credit (" + window + ")");
            return null;
        }
        if (kind == Protocol.MOVING_END) {
            try {
                value = endpoints.adopt(body);
            } catch (RuntimeException e) {
                via.refuse("a net input moving to " + location + " that this node refuses: " + e.getMessage());
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
        if (capacity > 0 && first) { // before the value can be read, so that the reader's credit comes after it
            w.link.send(new Frame(Protocol.OPENED, w.lane, capacity));
        }
        return e;
    }

    /** {@code w}'s value {@code seq} came before its predecessors (by a shorter way): it waits for them. */
    private void early(RemoteWriter w, long seq, byte kind, byte[] body, Link via) {
        if (seq <= w.arrived || w.unread + w.heldCount() >= window || (w.held != null && w.held.containsKey(seq))) {
            via.refuse("writer " + w.lane + " on " + w.link.peer() + " sent value " + seq + " to " + location
                    + " twice, or beyond its credit");
            return;
        }
        w.hold(new Parcel(kind, seq, null, body));
    }

    /** Takes {@code w}'s values that waited for the one just taken. Under the monitor. */
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
            return endpoints.decode(body);
        } catch (TypeNotAllowedException e) {
            String why = "the net channel " + location + " received from " + writer.peer() + " a value of " + e.getMessage()
                    + ": allow its type on this node too (Node.builder().allow(...)); the writer's error names it."
                    + " The channel is poisoned; the link and its other channels go on";
            LOG.log(System.Logger.Level.WARNING, why);
            writer.send(new Frame(Protocol.POISON_LANE, lane, Protocol.TYPE_NOT_ALLOWED, Protocol.wireId(e.wireId)));
            fail(new PoisonException(why));
            return null;
        } catch (RuntimeException e) {
            via.refuse("a value for " + location + " that this node's codec refuses: " + e.getMessage());
            return null;
        }
    }

    /** A moving input came on this channel after it was poisoned or closed: it lives on here, poisoned. */
    private void lostInMove(byte[] image, Link via) {
        NetInput<?> lost;
        try {
            lost = endpoints.adopt(image);
        } catch (RuntimeException e) {
            via.refuse("a net input moving to " + location + " that this node refuses: " + e.getMessage());
            return;
        }
        lost.fail(new PoisonException("the net input " + lost.location + " was lost as it moved: the channel "
                + location + " that carried it is poisoned or closed"));
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
     * A cancelled writer asks to take back its unread value, number {@code seq} of its lane (0: its last). On
     * a synchronous input it gets it back, with an answer, unless the reader took it first (then the read's
     * answer stands); a value still on its way is withdrawn when it comes. On a buffered input its value was
     * in the buffer, so the write had happened: nothing changes. A moving input cannot be taken back (it has
     * moved): its writer is answered as if it was read.
     */
    void withdraw(Link link, long lane, long seq) {
        if (capacity > 0) {
            return;
        }
        boolean wasEnd;
        RemoteWriter w;
        synchronized (this) {
            Map<Long, RemoteWriter> ofLink = writers.get(link);
            w = ofLink == null ? null : ofLink.get(lane);
            Forwarder f = moved;
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
     * home, losing the link to the input's home fails its forwarding pointer: writers that still come here
     * are told that the input was lost.
     */
    @Override
    public void linkLost(Link link, LinkLostException e, boolean peerClosed) {
        Forwarder f = moved;
        if (f != null) {
            forwarderLost(f, link, e);
            return;
        }
        boolean writesHere;
        boolean missing = false;
        synchronized (this) {
            writesHere = writers.containsKey(link);
            for (Map<Long, RemoteWriter> ofLink : writers.values()) {
                for (RemoteWriter w : ofLink.values()) {
                    missing |= w.heldCount() > 0;
                }
            }
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

    private void forwarderLost(Forwarder f, Link link, LinkLostException e) {
        synchronized (this) {
            Map<Long, RemoteWriter> ofLink = writers.remove(link);
            if (ofLink != null && latest != null && latest.link == link) {
                latest = null;
            }
            if (!f.leadsOver(link)) {
                return;
            }
        }
        fail(new LinkLostException("the net channel " + location + " moved to " + link.peer()
                + ", which was lost: " + e.getMessage()));
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
        Forwarder f;
        synchronized (this) {
            f = moved;
            if (f != null ? !f.fail(asLost(e)) : failure != null) {
                return;
            }
            if (f == null) {
                failure = e;
            }
            if (tellWriters) {
                for (Map<Long, RemoteWriter> ofLink : writers.values()) {
                    toTell.addAll(ofLink.values());
                }
            }
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
