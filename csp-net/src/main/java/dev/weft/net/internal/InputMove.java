package dev.weft.net.internal;

import dev.weft.csp.PoisonException;
import dev.weft.csp.spi.Extensions;
import dev.weft.net.LinkLostException;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a net input moves between nodes (see docs/net.md, "Mobile inputs"). Written to a net channel, it leaves
 * its node ({@link #moveOut}): it leaves a {@link Forwarder} there and travels as an {@link EndImage}, with its
 * unread values and what it knows of its writers; it comes to life where the channel is read ({@link #adopt}),
 * with the same location, and tells the nodes it left and first lived on where it is ({@link #homeIs} there).
 *
 * <p>Under the monitor of the input, which its arrivals and its reader's claim share: a move is atomic against
 * both.
 */
final class InputMove {
    private final NetInput<?> input;

    InputMove(NetInput<?> input) {
        this.input = input;
    }

    /**
     * Leaves this node: from now on the input is its forwarding pointer, and any use of it here throws. Returns
     * the image of the input, unread values included, for the node it goes to, over {@code carrierLink} in a
     * write to {@code carrier}.
     *
     * @throws IllegalStateException if a process is reading it now (waiting in a read or an alternative), if
     *                               it has moved already, or if it holds unread inputs itself
     */
    byte[] moveOut(NetChannelLocation carrier, Link carrierLink) {
        EndImage image;
        synchronized (input) {
            Forwarder f = input.moved;
            if (f != null) {
                throw f.moved();
            }
            if (Extensions.awaited(input.in)) {
                throw new IllegalStateException("cannot move the net input " + input.location + " while a process"
                        + " reads it (waiting in a read or in an Alternative)");
            }
            for (RemoteWriter w : input.arrivals.writers()) {
                if (w.held != null && w.held.values().stream().anyMatch(p -> p.kind() != Protocol.VALUE)) {
                    throw holdsInputs(null);
                }
            }
            input.arrivals.awaitOffers();
            List<Envelope> unread = new ArrayList<>();
            for (Envelope e; (e = Extensions.poll(input.in)) != null; ) {
                if (!e.withdrawn) {
                    unread.add(e);
                }
            }
            for (Envelope e : unread) {
                if (e.value instanceof NetInput) {
                    for (Envelope back : unread) {
                        Extensions.offer(input.out, back); // the channel was empty: its order is restored
                    }
                    throw holdsInputs(((NetInput<?>) e.value).location);
                }
            }
            image = image(unread);
            input.moved = new Forwarder(input.endpoints, input.location, input.moves + 1, carrierLink,
                    "it was written to the net channel " + carrier);
            input.arrivals.moved();
        }
        input.in.poison(); // a reader that comes later throws, as the input moved
        input.endpoints.uses(carrierLink, input); // lost before the new home says where it is: so is the input
        return image.encode();
    }

    private IllegalStateException holdsInputs(NetChannelLocation unread) {
        return new IllegalStateException("cannot move the net input " + input.location + ": it holds an unread net"
                + " input" + (unread == null ? "" : " (" + unread + ")") + "; read it first");
    }

    /** The input as it leaves, its unread values {@code unread}. Under the monitor. */
    private EndImage image(List<Envelope> unread) {
        Map<RemoteWriter, Integer> index = new IdentityHashMap<>();
        List<EndImage.Writer> ws = new ArrayList<>();
        List<EndImage.Item> held = new ArrayList<>();
        for (RemoteWriter w : input.arrivals.writers()) {
            int i = ws.size();
            index.put(w, i);
            ws.add(new EndImage.Writer(w.link.peer(), w.lane, w.arrived, w.owed, w.opened, w.withdrawn));
            if (w.held != null) {
                for (Parcel p : w.held.values()) {
                    held.add(new EndImage.Item(i, p.seq(), p.body()));
                }
            }
        }
        List<EndImage.Item> items = new ArrayList<>(unread.size());
        for (Envelope e : unread) {
            items.add(new EndImage.Item(index.get(e.writer), 0, input.endpoints.encode(e.value)));
        }
        RuntimeException f = input.failure;
        return new EndImage(input.location, input.moves + 1,
                new NetChannelLocation(input.endpoints.address(), input.localId), input.capacity,
                f == null ? null : f.getMessage(), f instanceof LinkLostException, input.closed, ws, items, held);
    }

    /**
     * Brings to life on {@code endpoints}' node the input that {@code image} describes, moved from another node
     * (or from this one): it gets a name on this node, and the nodes it left and first lived on hear where it is
     * now (they forward to it and redirect its writers). Its writers' links are made if need be; it watches the
     * links to those nodes, since values it waits for may be on their way from there.
     *
     * @throws IllegalArgumentException if the image is malformed or this node's codec refuses one of its values
     */
    static NetAltingInput<?> adopt(Endpoints endpoints, byte[] image) {
        EndImage e = EndImage.decode(image);
        NetAltingInput<?> in = new NetAltingInput<>(endpoints, e.location(), endpoints.nextId(), e.capacity(), e.moves());
        in.move.restore(e);
        endpoints.adopted(in);
        byte[] here = Parcel.home(endpoints.address(), in.localId);
        Link left = endpoints.link(e.left().node());
        left.send(new Frame(Protocol.HOME, e.left().id(), e.moves(), here));
        endpoints.uses(left, in);
        if (!e.left().equals(e.location())) {
            Link origin = endpoints.link(e.location().node());
            origin.send(new Frame(Protocol.HOME, e.location().id(), e.moves(), here));
            endpoints.uses(origin, in);
        }
        return in;
    }

    /**
     * Rebuilds the input from {@code image} on the node it came to: its writers (answered from here on), its
     * unread values, in order, its poison or close.
     *
     * @throws IllegalArgumentException if this node's codec refuses one of its values
     */
    private void restore(EndImage image) {
        List<Object> values = new ArrayList<>(image.unread().size());
        for (EndImage.Item i : image.unread()) {
            values.add(input.endpoints.decode(i.bytes()));
        }
        List<RemoteWriter> ws = new ArrayList<>(image.writers().size());
        synchronized (input) {
            for (EndImage.Writer iw : image.writers()) {
                RemoteWriter w = input.arrivals.writer(input.endpoints.link(iw.node()), iw.lane());
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
                Extensions.offer(input.out, e);
            }
            input.closed = image.closed();
        }
        if (image.failure() != null) {
            input.close(image.lost() ? new LinkLostException(image.failure()) : new PoisonException(image.failure()));
        } else if (image.closed()) {
            input.out.close();
        }
    }

    /** The input now lives at {@code home} after {@code newMoves} moves (said by that node). */
    void homeIs(long newMoves, NetChannelLocation home) {
        Link watch;
        synchronized (input) {
            Forwarder f = input.moved;
            if (f == null || (watch = f.homeIs(newMoves, home)) == null) {
                return;
            }
            for (RemoteWriter w : input.arrivals.writers()) {
                if (w.redirectedTo < newMoves) { // sooner than its next value: it may not write here again
                    w.redirectedTo = newMoves;
                    w.link.send(new Frame(Protocol.REDIRECT, w.lane, newMoves, Parcel.home(home.node(), home.id())));
                }
            }
        }
        input.endpoints.uses(watch, input);
    }

    /**
     * On an old home, a link is gone: its writers are forgotten, and if it led to the input's home, the
     * forwarding pointer {@code f} fails: writers that still come here are told that the input was lost.
     */
    void linkLost(Forwarder f, Link link, LinkLostException e) {
        synchronized (input) {
            input.arrivals.forget(link);
            if (!f.leadsOver(link)) {
                return;
            }
        }
        input.fail(new LinkLostException("the net channel " + input.location + " moved to " + link.peer()
                + ", which was lost: " + e.getMessage()));
    }

    /** A moving input came on {@code input}'s channel after it was poisoned or closed: it lives on here, poisoned. */
    static void lostInMove(NetInput<?> input, byte[] image, Link via) {
        NetInput<?> lost;
        try {
            lost = adopt(input.endpoints, image);
        } catch (RuntimeException e) {
            via.refuse("a net input moving to " + input.location + " that this node refuses: " + e.getMessage());
            return;
        }
        lost.fail(new PoisonException("the net input " + lost.location + " was lost as it moved: the channel "
                + input.location + " that carried it is poisoned or closed"));
    }
}
