package dev.weft.net.internal;

import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;

/**
 * Which handler takes each frame type of the channel layer ({@link Protocol}): a table indexed by the type,
 * filled once as the node is made, before its transport starts, and read without a lock by the event loop.
 * Each concern registers the types it handles ({@link InputFrames}, {@link CreditFrames}, {@link MoveFrames},
 * {@link ReplyFrames}, {@link NameService}), so a new frame type touches its constant and one handler. Routing
 * a frame is one array load and one call: nothing is allocated (but the {@link Frame} of a rare frame's
 * {@link #onFrame handler}).
 */
final class FrameRoutes {
    /** What the channel layer does with frames of one type; runs on an event loop and must never block. */
    @FunctionalInterface
    interface Handler {
        /** A frame of the handler's type, by its parts (see {@link Frame}). */
        void received(Link link, long channel, long number, byte[] payload);
    }

    /** What the channel layer does with frames of one type, as a {@link Frame}: for the concerns whose frames are rare. */
    @FunctionalInterface
    interface FrameHandler {
        void received(Link link, Frame f);
    }

    private final Handler[] byType = new Handler[Byte.MAX_VALUE + 1];

    /**
     * Sends frames of {@code type} to {@code handler}.
     *
     * @throws IllegalStateException if the type has a handler already (two concerns claim it)
     */
    void on(byte type, Handler handler) {
        if (type < Frame.FIRST_CHANNEL_TYPE) {
            throw new IllegalArgumentException("frame type " + type + " belongs to the transport");
        }
        if (byType[type] != null) {
            throw new IllegalStateException("frame type " + type + " has a handler already");
        }
        byType[type] = handler;
    }

    /**
     * Sends frames of {@code type} to {@code handler} as a {@link Frame}, made for it: for rare frames (names,
     * moves), whose handlers read better with one; the values' and answers' frames take {@link #on}.
     */
    void onFrame(byte type, FrameHandler handler) {
        on(type, (link, channel, number, payload) -> handler.received(link, new Frame(type, channel, number, payload)));
    }

    /** Hands a frame, by its parts, to the handler of its type; a type that none handles breaks the protocol. */
    void route(Link link, byte type, long channel, long number, byte[] payload) {
        Handler h = type >= 0 ? byType[type] : null;
        if (h == null) {
            link.refuse("unknown frame type " + type);
            return;
        }
        h.received(link, channel, number, payload);
    }
}
