package dev.weft.net.internal.sockets;

import io.netty.channel.Channel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.unix.Socket;
import io.netty.util.concurrent.FastThreadLocal;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A write that goes straight to the socket when nothing is queued for it: the bytes are copied into the calling
 * carrier's own direct buffer and sent with one {@code send(2)}. Netty's path costs a pooled buffer (taken and
 * given back), an entry of the outbound queue and a walk down the pipeline per write, which in a small server
 * answering short requests is more processor time than the rest of Weft's share of the request together.
 *
 * <p>Only for an epoll socket, and only on the thread that holds the socket's loop ({@link SocketLoops#enter}):
 * then nobody else writes to the socket meanwhile, and an empty outbound queue means every byte written before
 * has reached the socket, so these bytes keep their place in the stream. What the socket does not take now, and
 * every error, is left to Netty's path: it queues the rest (and waits for the socket to drain), and it meets the
 * same error again and reports it as it reports any (the connection fails, then closes).
 */
public final class DirectSend {
    /** The most one send hands the socket; a larger write sends again, or queues the rest once the socket is full. */
    private static final int CAPACITY = 64 * 1024;
    /** One per carrier (its {@code FastThreadLocal}s are cleared as it ends): used only while it holds a loop. */
    private static final FastThreadLocal<ByteBuffer> BUFFER = new FastThreadLocal<>() {
        @Override
        protected ByteBuffer initialValue() {
            return ByteBuffer.allocateDirect(CAPACITY);
        }
    };

    private DirectSend() {
    }

    /**
     * Sends from {@code src} what the socket of {@code channel} takes now, if it is an epoll socket with nothing
     * queued; advances {@code src} by what was sent (nothing, if it could not). The caller holds the channel's loop.
     */
    public static void sendNow(Channel channel, ByteBuffer src) {
        boolean idle = channel.isActive() && SocketLoops.nothingQueued(channel);
        if (!idle || !(channel instanceof EpollSocketChannel epoll)) {
            return;
        }
        ByteBuffer buffer = BUFFER.get();
        int n = Math.min(src.remaining(), CAPACITY);
        buffer.put(0, src, src.position(), n);
        int sent;
        try {
            sent = ((Socket) epoll.fd()).send(buffer, 0, n);
        } catch (IOException e) {
            return; // Netty's path meets it again, and fails the connection as it does for any error
        }
        src.position(src.position() + sent);
    }
}
