package dev.weft.net.internal;

import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;

/**
 * Which handler takes each frame type of the channel layer ({@link Protocol}): a table indexed by the type,
 * filled once as the node is made, before its transport starts, and read without a lock by the event loop.
 * Each concern registers the types it handles ({@link InputFrames}, {@link CreditFrames}, {@link MoveFrames},
 * {@link ReplyFrames}, {@link NameService}), so a new frame type touches its constant and one handler. Routing
 * a frame is one array load and one call: nothing is allocated.
 */
final class FrameRoutes {
    /** What the channel layer does with frames of one type; runs on an event loop and must never block. */
    @FunctionalInterface
    interface Handler {
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

    /** Hands {@code f} to the handler of its type; a type that none handles breaks the protocol. */
    void route(Link link, Frame f) {
        byte type = f.type();
        Handler h = type >= 0 ? byType[type] : null;
        if (h == null) {
            link.refuse("unknown frame type " + type);
            return;
        }
        h.received(link, f);
    }
}
