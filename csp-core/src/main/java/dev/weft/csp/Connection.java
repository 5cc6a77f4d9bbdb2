package dev.weft.csp;

import dev.weft.csp.internal.AltGuard;
import dev.weft.csp.internal.ChannelImpl;
import dev.weft.csp.internal.Selection;
import dev.weft.csp.internal.Waitable;
import java.util.List;

/**
 * Client-server connections: a client's {@code request} is one transaction, a request and its reply. Built
 * from a synchronous request channel and a reply channel with room for one reply; shared clients take turns
 * (FIFO) for whole transactions. The server's {@code reply} returns once the reply is on its way.
 *
 * <p>A client cancelled while it waits for its reply ({@link Fiber#cancel()}, an interrupt) gives up its turn
 * at once: the reply that comes later is numbered for its transaction, and the next client drops it. A client
 * cancelled before the server accepted its request sent nothing.
 */
public final class Connection<Q, R> implements One2OneConnection<Q, R>, Any2OneConnection<Q, R> {
    private static final Object TURN = new Object();

    private final ChannelImpl<Q> requests = new ChannelImpl<>(null, false, false);
    private final ChannelImpl<Reply<R>> replies = new ChannelImpl<>(ChannelBuffer.fixed(1), false, false);
    private final ChannelImpl<Object> turns; // null for a single client
    /** Requests the server has accepted: written by the server only. */
    private long accepted;
    /** Requests delivered to the server: written by the client holding the turn (the turn orders it). */
    private long delivered;
    private final Client client = new Client();
    private final Server server = new Server();

    private Connection(boolean sharedClients) {
        turns = sharedClients ? new ChannelImpl<>(ChannelBuffer.fixed(1), false, true) : null;
    }

    /** A connection for one client and one server. */
    public static <Q, R> One2OneConnection<Q, R> one2one() {
        return new Connection<>(false);
    }

    /** A connection for any number of clients and one server. */
    public static <Q, R> Any2OneConnection<Q, R> any2one() {
        return new Connection<>(true);
    }

    @Override
    public ConnectionClient<Q, R> client() {
        return client;
    }

    @Override
    public ConnectionServer<Q, R> server() {
        return server;
    }

    /** Poisons the connection for good, from either end (see {@link ConnectionClient#poison()}). */
    private void poisonAll() {
        requests.in().poison();
        replies.in().poison();
        if (turns != null) {
            turns.in().poison();
        }
    }

    private final class Client implements ConnectionClient<Q, R> {
        @Override
        public void poison() {
            poisonAll();
        }

        @Override
        @Pausable
        public R request(Q request) {
            if (turns != null) {
                turns.out().write(TURN); // waits while another client's transaction is open
            }
            try {
                requests.out().write(request);
                long mine = ++delivered;
                for (;;) {
                    Reply<R> r = replies.in().read();
                    if (r.transaction == mine) {
                        return r.value;
                    }
                    // the late reply of an earlier transaction whose client was cancelled: dropped
                }
            } finally {
                if (turns != null) {
                    turns.in().takeIfBuffered(); // never pauses, so a cancelled client gives its turn back too
                }
            }
        }
    }

    private final class Server implements ConnectionServer<Q, R>, AltGuard, Waitable {
        @Override
        public void poison() {
            poisonAll();
        }

        @Override
        @Pausable
        public Q accept() {
            Q q = requests.in().read();
            accepted++;
            return q;
        }

        @Override
        @Pausable
        public void reply(R reply) {
            if (reply == null) {
                throw new NullPointerException("cannot reply null");
            }
            replies.out().write(new Reply<>(accepted, reply));
        }

        @Override
        public ChannelImpl<?> channel() {
            return requests;
        }

        @Override
        public boolean ready(Selection.Registration me, List<Fiber> wake) {
            return requests.in().ready(me, wake);
        }

        @Override
        public void register(Selection.Registration me) {
            requests.in().register(me);
        }

        @Override
        public void unregister(Selection.Registration me) {
            requests.in().unregister(me);
        }

        @Override
        public void markUse(dev.weft.csp.runtime.WorkerPool pool) {
            requests.in().markUse(pool);
        }

        @Override
        public boolean onlyUsedBy(dev.weft.csp.runtime.WorkerPool pool, boolean creatorCounts) {
            return requests.in().onlyUsedBy(pool, creatorCounts);
        }

        @Override
        public String toString() {
            return "the server end of a connection (" + requests.in() + ")";
        }
    }

    /** A reply and the transaction it answers. */
    private static final class Reply<R> {
        final long transaction;
        final R value;

        Reply(long transaction, R value) {
            this.transaction = transaction;
            this.value = value;
        }
    }
}
