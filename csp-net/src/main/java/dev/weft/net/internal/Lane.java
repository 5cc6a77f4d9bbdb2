package dev.weft.net.internal;

import dev.weft.csp.CancelledException;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.csp.Fiber;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.spi.Extensions;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.transport.Frame;
import java.nio.ByteBuffer;

/**
 * One writing party of a net output: one write (or one client transaction) at a time, named on the wire by
 * its id. It holds the writer's side of the credit protocol ({@link Protocol}): how many values it may still
 * send, and how many of those sent have been answered.
 *
 * <p>Answers arrive on a network event loop, which updates the state under this object's monitor and rings
 * the doorbell: a channel with room for one token that overwrites, so ringing never blocks and a ring that
 * comes between a check and the wait is not lost. A failure poisons the doorbell instead.
 *
 * <p>Why a second wake-up ({@link #waiter}, for {@link #awaitWithdrawal} only): a cancelled writer must learn
 * whether its value was withdrawn before it unwinds, and a cancelled fiber cannot read a channel (the read throws
 * at once), so it parks ignoring the cancellation and the answer unparks it. Each wake-up reaches only the wait
 * it is for. The doorbell's token is taken by the next wait on this lane. The waiter is registered under this
 * object's monitor by the check that found no answer, and taken there by the answer that wakes it: so the
 * registration and the answer are ordered by the monitor, an answer that comes after the check finds the
 * waiter (no lost wake-up), and one that comes before is seen by the check, which then does not register (no
 * unpark reaches a party that went on: a plain thread would keep it as a permit and end its next channel wait
 * early, since csp-core parks a thread once per channel wait). The same hand-off is why park and unpark cannot
 * replace the doorbell: a cancellable park ended by an interrupt cannot tell, with csp-core's public API,
 * whether an answer's unpark is already on its way to it, to be kept as such a permit; a channel read withdraws
 * its wait inside csp-core, where that is known.
 */
final class Lane {
    private static final Object RING = new Object();

    final long id;
    private final NetOutput<?> owner;
    private final One2OneChannel<Object> doorbell = Channel.one2one(ChannelBuffer.overwritingOldest(1));

    // Under this object's monitor.
    private int credits = 1; // a first value may go before the input has said what it is
    private int capacity = 1;
    private boolean buffered;
    private long sent;
    private long answered;
    private Object reply; // a connection's reply, until its client takes it
    private volatile boolean spent; // set once; read without the monitor as the lane is given back
    private boolean lastWithdrawn; // the last answer was a withdrawal, not a read
    private long settled; // values answered: read (ACK, OPENED, CREDIT) or withdrawn
    private long routeMoves; // the move count of the route of the last value sent
    private long switchedAt; // values sent before the last change of route
    private Route sending; // the route of the value being sent, chosen with its number
    private Fiber waiter; // a cancelled writer waiting to learn whether its value was withdrawn (see above)

    NetOutput<?> owner() {
        return owner;
    }

    Lane(long id, NetOutput<?> owner) {
        this.id = id;
        this.owner = owner;
        Extensions.usedFromOutside(doorbell.in()); // an event loop rings it: a waiting writer is never a deadlock
    }

    /**
     * Sends {@code bytes} to input {@code inputId} over {@code link} once there is credit, and on a
     * synchronous channel waits until the reader has taken it. A writer cancelled while it waits for that
     * asks the input to withdraw the value and learns whether it did: it throws only if its value was
     * withdrawn (a cancelled write delivered nothing); if the reader took it first, it returns.
     */
    @Pausable
    void deliver(byte[] bytes) {
        long mine = awaitCredit();
        Route r = sending;
        try {
            send(r, mine, Protocol.VALUE, bytes);
        } catch (RuntimeException e) { // too long for the link: nothing was sent, the lane's credit stays
            returnCredit();
            throw e;
        }
        awaitAnswer(r, mine);
    }

    /**
     * As {@link #deliver}, for a net input that moves: it leaves its node once there is credit, just before
     * it is sent to {@code carrier} (so that a write that fails before has not moved it).
     */
    @Pausable
    void deliverEnd(NetInput<?> moving, NetChannelLocation carrier) {
        long mine = awaitCredit();
        Route r = sending;
        byte[] image;
        try {
            image = moving.move.moveOut(carrier, r.link());
        } catch (RuntimeException e) {
            returnCredit();
            throw e;
        }
        send(r, mine, Protocol.MOVING_END, image);
        awaitAnswer(r, mine);
    }

    @Pausable
    private long awaitCredit() {
        long mine;
        while ((mine = takeCredit()) == 0) {
            waitForRing();
        }
        return mine;
    }

    /**
     * Sends value {@code mine}: to the input's first home as it was made, a plain frame; to a home it moved
     * to, numbered, so that the home puts it in order with those still on their way by an old home.
     */
    private void send(Route r, long mine, byte kind, byte[] bytes) {
        if (r.moves() == 0) {
            r.link().send(new Frame(kind == Protocol.VALUE ? Protocol.DATA : Protocol.END, r.inputId(), id, bytes));
        } else {
            r.link().send(new Frame(Protocol.DIRECT, r.inputId(), id, Parcel.direct(kind, mine, bytes)));
        }
    }

    @Pausable
    private void awaitAnswer(Route r, long mine) {
        try {
            for (;;) {
                if (answeredOrBuffered(mine)) {
                    return;
                }
                waitForRing();
            }
        } catch (CancelledException e) {
            r.link().send(r.moves() == 0 ? new Frame(Protocol.WITHDRAW, r.inputId(), id)
                    : new Frame(Protocol.WITHDRAW, r.inputId(), id, seqBytes(mine)));
            if (!awaitWithdrawal(mine)) {
                return; // the reader took it first: the write happened; the cancellation stays pending
            }
            throw e;
        }
    }

    /**
     * After a cancelled writer asked to withdraw its value: waits, whatever the cancellation, to learn whether
     * the value was withdrawn (true) or read first (false), so that a write that throws never delivered.
     * The input answers at once; a lost link ends the wait too (with its failure).
     */
    @Pausable
    private boolean awaitWithdrawal(long mine) {
        Fiber me = Fiber.current();
        for (;;) {
            Boolean outcome = outcome(mine, me);
            if (outcome != null) {
                return outcome;
            }
            Extensions.parkIgnoringCancellation(this); // a fiber may return without a wake-up: it looks again
        }
    }

    /** The outcome of value {@code mine}, or null having registered {@code me} as the waiter for it. */
    private synchronized Boolean outcome(long mine, Fiber me) {
        if (waiter == me) {
            waiter = null; // back without the answer's wake-up (a fiber's spurious return): looking again
        }
        if (answered >= mine) {
            return lastWithdrawn;
        }
        owner.checkFailure();
        waiter = me;
        return null;
    }

    /** After {@link #deliver} on a connection: waits for the server's reply. */
    @Pausable
    Object awaitReply() {
        try {
            for (;;) {
                Object r = takeReply();
                if (r != null) {
                    return r;
                }
                waitForRing();
            }
        } catch (CancelledException e) {
            spend(); // its reply may still come: this lane is never used again
            throw e;
        }
    }

    /**
     * Waits for a ring, or for the output's failure, which poisons the doorbell. Poison drops a ring not yet
     * taken: an answer may have come just before the failure (a server's last reply, then its node's goodbye, read
     * together), so the caller looks at the lane again, where it finds that answer, or else throws the failure.
     */
    @Pausable
    private void waitForRing() {
        try {
            doorbell.in().read();
        } catch (PoisonException e) {
            if (!owner.hasFailed()) {
                throw e; // never: only the output's failure poisons the doorbell (see failed())
            }
        }
    }

    /**
     * Takes a credit and numbers the value it sends (from 1), or returns 0 if there is none; chooses its route
     * with its number, so that every value numbered after a change of route goes the new way.
     */
    private synchronized long takeCredit() {
        owner.checkFailure();
        if (credits == 0) {
            return 0;
        }
        credits--;
        Route r = owner.currentRoute();
        if (r.moves() != routeMoves) {
            routeMoves = r.moves();
            switchedAt = sent;
        }
        sending = r;
        return ++sent;
    }

    /** Gives back the credit taken for a value that was not sent after all. */
    private synchronized void returnCredit() {
        credits++;
        sent--;
    }

    /**
     * Whether every value this lane sent by a way other than {@code current} was answered: none can still be
     * lost on an old way.
     */
    synchronized boolean settledOffRoute(Route current) {
        return settled >= (current.moves() == routeMoves ? switchedAt : sent);
    }

    static byte[] seqBytes(long seq) {
        return ByteBuffer.allocate(Long.BYTES).putLong(seq).array();
    }

    static long seqOf(byte[] bytes) {
        return ByteBuffer.wrap(bytes).getLong();
    }

    private synchronized boolean answeredOrBuffered(long mine) {
        if (answered >= mine || buffered) {
            return true;
        }
        owner.checkFailure();
        return false;
    }

    private synchronized Object takeReply() {
        Object r = reply;
        if (r != null) {
            reply = null;
            return r;
        }
        owner.checkFailure();
        return null;
    }

    private void spend() {
        spent = true;
    }

    /** Whether a cancelled party left this lane waiting for an answer it will never use. */
    boolean isSpent() {
        return spent;
    }

    // ------------------------------------------------------------------ answers, on an event loop

    /** A synchronous value was read. */
    void acknowledged() {
        answer(false);
    }

    /** A cancelled writer's synchronous value was withdrawn unread. */
    void withdrawn() {
        answer(true);
    }

    private void answer(boolean withdrawn) {
        Fiber w;
        synchronized (this) {
            answered++;
            settled++;
            credits = 1;
            lastWithdrawn = withdrawn;
            w = takeWaiter();
        }
        ring(w);
    }

    /** The input is buffered: the first value is in its buffer, {@code capacity - 1} more may follow. */
    boolean opened(long capacity) {
        Fiber w;
        synchronized (this) {
            if (buffered || capacity < 1 || capacity > Integer.MAX_VALUE) {
                return false;
            }
            buffered = true;
            this.capacity = (int) capacity;
            answered++;
            settled++;
            credits += this.capacity - 1;
            w = takeWaiter(); // the first value is answered
        }
        ring(w);
        return true;
    }

    /** {@code n} values were read from a buffered input: room for as many. False if that breaks the credit. */
    boolean credited(long n) {
        synchronized (this) {
            if (!buffered || n < 1 || credits + n > capacity) {
                return false;
            }
            credits += (int) n;
            settled += n;
        }
        ring(null);
        return true;
    }

    /** A connection server replied. False if no transaction was waiting for it. */
    boolean replied(Object value) {
        synchronized (this) {
            if (reply != null) {
                return false;
            }
            reply = value;
        }
        ring(null);
        return true;
    }

    /**
     * Wakes the party waiting on this lane, if any, to look at its state again; and {@code withdrawing}, the
     * cancelled writer that an answer took as the waiter, if any.
     */
    private void ring(Fiber withdrawing) {
        Extensions.offer(doorbell.out(), RING);
        if (withdrawing != null) {
            withdrawing.unpark();
        }
    }

    /**
     * The output has failed: wakes its waiting party, which throws the output's failure unless its answer came
     * first. From any thread; only once the output's failure is set, which every wait relies on to end.
     */
    void failed() {
        doorbell.in().poison();
        Fiber w;
        synchronized (this) {
            w = takeWaiter();
        }
        if (w != null) {
            w.unpark();
        }
    }

    /** The cancelled writer waiting for an answer, if any, taken so that only this wake-up reaches it. */
    private Fiber takeWaiter() {
        Fiber w = waiter;
        waiter = null;
        return w;
    }

    @Override
    public String toString() {
        return "lane " + id + " of " + owner;
    }
}
