package dev.weft.net.internal;

import dev.weft.net.NetChannelLocation;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import java.util.ArrayList;
import java.util.List;

/**
 * The forwarding pointer a net input leaves on a node it moves away from. What its writers still send here
 * goes on to its newest home known, numbered by lane (so the home puts each lane's values back in order
 * whatever way they came), and each writer is told where that home is, so that it writes there directly
 * from then on. Until the new home says where it is, what comes is kept here, in order.
 *
 * <p>Under the monitor of the input it stands for (the {@link NetInput} that moved, which keeps its writers'
 * records). Kept while the node lives: a writer that has not written since the move may still come.
 */
final class Forwarder {
    private final Endpoints endpoints;
    private final NetChannelLocation location;
    private final List<Frame> waiting = new ArrayList<>(); // for the home, until it is known: channel 0
    private long moves;
    private NetChannelLocation home; // null until the new home says where it is
    private Link homeLink; // the link the input went over, until its home is known
    private volatile String where; // read without the lock by a use of the old end
    private RuntimeException failure;

    Forwarder(Endpoints endpoints, NetChannelLocation location, long moves, Link carrierLink, String where) {
        this.endpoints = endpoints;
        this.location = location;
        this.moves = moves - 1;
        this.homeLink = carrierLink;
        this.where = where;
    }

    /** What a use of the input on this node throws. */
    IllegalStateException moved() {
        return new IllegalStateException("the net input " + location + " moved from this node: " + where);
    }

    /** A value (or a moving input) of {@code w}'s, numbered {@code seq}: on to the home. */
    void forward(RemoteWriter w, long seq, byte kind, byte[] body) {
        if (failure != null) {
            w.link.send(new Frame(Protocol.POISON_LANE, w.lane, Protocol.LOST));
            return;
        }
        send(new Frame(Protocol.FORWARD, 0, w.lane, Parcel.forward(kind, seq, w.link.peer(), body)));
        if (home != null && w.redirectedTo < moves) {
            w.redirectedTo = moves;
            w.link.send(new Frame(Protocol.REDIRECT, w.lane, moves, Parcel.home(home.node(), home.id())));
        }
    }

    /** A writer poisoned the channel, or closed it: on to the home, after what came before. */
    void signal(byte type) {
        if (failure == null) {
            send(new Frame(type, 0, 0));
        }
    }

    /** Sends {@code f} (whose channel is the home's name for the input, 0 here) to the home, or keeps it. */
    private void send(Frame f) {
        if (home == null) {
            waiting.add(f);
        } else {
            homeLink.send(new Frame(f.type(), home.id(), f.number(), f.payload()));
        }
    }

    /**
     * The input is at {@code newHome} after {@code newMoves} moves: sends what waited; returns the link to it,
     * to watch, or null if this is no news.
     */
    Link homeIs(long newMoves, NetChannelLocation newHome) {
        if (newMoves <= moves || failure != null) {
            return null;
        }
        Link link;
        try {
            link = endpoints.link(newHome.node());
        } catch (RuntimeException nodeClosed) {
            return null;
        }
        moves = newMoves;
        home = newHome;
        homeLink = link;
        where = "it lives on node " + newHome.node() + " now";
        for (Frame f : waiting) {
            send(f);
        }
        waiting.clear();
        return link;
    }

    /** Whether {@code link} is the one to the home (or, before it is known, the one the input went over). */
    boolean leadsOver(Link link) {
        return link == homeLink;
    }

    /**
     * The input was lost on its way or with its home, or this node closes: what comes from now on is refused
     * with {@code e}'s kind. Returns whether this is news.
     */
    boolean fail(RuntimeException e) {
        if (failure != null) {
            return false;
        }
        failure = e;
        waiting.clear();
        return true;
    }
}
