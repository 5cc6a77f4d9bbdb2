package dev.weft.net.transport;

import dev.weft.net.NodeAddress;
import io.netty.channel.EventLoop;
import io.netty.util.internal.PlatformDependent;
import java.util.Queue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What every link shares: any thread queues frames without a lock, and at most one drain at a time, on the
 * node's event loop, takes everything queued so far (a network link writes it all and flushes once); and the
 * link is lost once, after which it sends and delivers nothing.
 *
 * <p>The queue has many producers and one consumer: only tasks on the event loop take from it (the drain, and
 * the discarding of what a lost link still holds), one at a time, each loop driver's work ordered before the
 * next one's. So a frame costs a slot in an array, not a node and a compare-and-set loop.
 */
abstract class QueuedLink implements Link {
    private static final System.Logger LOG = System.getLogger(Transport.class.getName());
    private final NodeAddress peer;
    final EventLoop loop;
    private final LinkListener listener;
    /** The longest frame sent: this node's maxFrameBytes, or the peer's if it said a smaller one (a volatile read per frame). */
    private volatile int maxFrameBytes;
    /** Whose limit {@link #maxFrameBytes} is, for messages. */
    private volatile String whoseLimit = "this node's";
    /** Frames waiting for a drain: many producers, one consumer (on the loop only, see the class comment). */
    private final Queue<Frame> queue = PlatformDependent.newMpscQueue();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    /** The drain, as a task made once (a method reference per scheduled drain would be an object per drain). */
    private final Runnable drainTask = this::drain;
    /** Drops what a lost link still holds queued (made once, as the drain). */
    private final Runnable discardTask = this::discard;
    private final AtomicBoolean lost = new AtomicBoolean();
    private volatile boolean orderly; // set once lost, before the listener hears of it
    private volatile String whyLost; // set once lost, before the listener hears of it

    QueuedLink(NodeAddress peer, EventLoop loop, LinkListener listener, int maxFrameBytes) {
        this.peer = peer;
        this.loop = loop;
        this.listener = listener;
        this.maxFrameBytes = maxFrameBytes;
    }

    /** Whether queued frames can go out now (a network link: once its handshake is done). */
    abstract boolean ready();

    /** Sends one drained frame (on the loop). */
    abstract void write(Frame frame);

    /** Ends a drain that wrote {@code frames} frames (on the loop). */
    abstract void flush(int frames);

    /** Releases what the link holds once it is lost, telling the peer {@code toPeer} if not null (on the loop). */
    abstract void release(String toPeer);

    @Override
    public final NodeAddress peer() {
        return peer;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if the frame's type belongs to the transport (below 16) or the frame is
     *                                  longer than the node's {@code maxFrameBytes}, or than the peer's once it
     *                                  said a smaller one: the write fails at its writer, the link goes on
     */
    @Override
    public final void send(Frame frame) {
        if (frame.type() < Frame.FIRST_CHANNEL_TYPE) {
            throw new IllegalArgumentException("frame type " + frame.type() + " belongs to the transport; the channel layer's types are "
                    + Frame.FIRST_CHANNEL_TYPE + " to 127");
        }
        int limit = maxFrameBytes;
        if (Frame.HEADER_BYTES + frame.payload().length > limit) {
            throw new IllegalArgumentException("a frame of " + (Frame.HEADER_BYTES + frame.payload().length)
                    + " bytes is longer than " + whoseLimit + " maxFrameBytes " + limit);
        }
        if (lost.get()) {
            return;
        }
        queue.add(frame);
        if (lost.get()) {
            discardOnLoop(); // lost while we queued: the loss may have emptied the queue before our frame went in
            return;
        }
        scheduleDrain();
    }

    /**
     * The peer accepts frames of at most {@code peerMax} bytes ({@code whose} limit, for messages): a longer frame
     * fails at its sender instead of losing the link at the peer. Frames queued before are checked only against
     * this node's own limit.
     */
    final void limitFrames(int peerMax, String whose) {
        if (peerMax < maxFrameBytes) {
            whoseLimit = whose;
            maxFrameBytes = peerMax;
        }
    }

    /** Schedules a drain unless one is pending or the link is not ready. */
    final void scheduleDrain() {
        if (ready() && !drainScheduled.get() && !queue.isEmpty() && drainScheduled.compareAndSet(false, true)) {
            try {
                loop.execute(drainTask);
            } catch (RejectedExecutionException e) {
                drainScheduled.set(false); // the node is closed: the link is lost, or about to be
            }
        }
    }

    private void drain() {
        drainScheduled.set(false); // before taking frames: one queued from now on schedules the next drain
        int frames = 0;
        for (Frame f; !lost.get() && (f = queue.poll()) != null; frames++) {
            write(f);
        }
        if (frames > 0) {
            flush(frames);
        }
    }

    /** Drops what is queued, on the loop (the queue's one consumer); a loop gone takes the queue with it. */
    private void discardOnLoop() {
        try {
            loop.execute(discardTask);
        } catch (RejectedExecutionException e) {
            // The node is closed: nothing drains the queue again, which goes with the link.
        }
    }

    /** Drops what is queued (on the loop). */
    private void discard() {
        while (queue.poll() != null) {
            // dropped: the link is lost
        }
    }

    /** Hands a frame from the peer to the listener, unless the link is lost (on the loop). */
    final void deliver(Frame frame) {
        deliver(frame.type(), frame.channel(), frame.number(), frame.payload());
    }

    /**
     * Hands a frame from the peer, given by its parts (see {@link Frame}), to the listener unless the link is lost
     * (on the loop): the decoder reads them where they lie, with no frame object.
     */
    final void deliver(byte type, long channel, long number, byte[] payload) {
        if (lost.get()) {
            return;
        }
        try {
            listener.received(this, type, channel, number, payload);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "the listener failed on a frame from " + peer, e);
            refuse("the channel layer failed on a frame: " + e);
        }
    }

    /**
     * Loses the link, once: drops what is queued, then on the loop releases it and tells the listener.
     *
     * @param toPeer what to tell the peer in a goodbye ("" when this node closes), or null to tell it nothing
     */
    final void lose(String why, String toPeer) {
        lose(why, toPeer, false);
    }

    /** As {@link #lose(String, String)}; {@code orderly} if the peer said goodbye because its node closes. */
    final void lose(String why, String toPeer, boolean orderly) {
        if (!lost.compareAndSet(false, true)) {
            return;
        }
        this.orderly = orderly;
        this.whyLost = why;
        Runnable end = () -> {
            discard(); // here, the queue's consumer; no drain writes once lost
            release(toPeer);
            try {
                listener.lost(this, why);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "the listener failed on losing the link to " + peer, e);
            }
        };
        if (loop.inEventLoop()) {
            end.run();
        } else {
            try {
                loop.execute(end);
            } catch (RejectedExecutionException e) {
                // The node closed and its loop is gone: it lost every link it knew before that.
            }
        }
    }

    @Override
    public final void refuse(String why) {
        lose(why, why);
    }

    @Override
    public final boolean endedByPeerClosing() {
        return orderly;
    }

    @Override
    public final boolean isLost() {
        return lost.get();
    }

    @Override
    public final String whyLost() {
        String why = whyLost;
        return why != null ? why : "the link to " + peer + " was lost";
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + peer + (isLost() ? ", lost]" : "]");
    }
}
