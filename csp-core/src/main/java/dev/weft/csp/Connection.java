package dev.weft.csp;

import java.util.List;

/**
 * Client-server connections: a client's {@code request} is one transaction, a request and its reply. Built
 * from two synchronous channels; shared clients take turns (FIFO) for whole transactions.
 */
public final class Connection<Q, R> implements One2OneConnection<Q, R>, Any2OneConnection<Q, R> {
    private static final Object TURN = new Object();

    private final ChannelImpl<Q> requests = new ChannelImpl<>(null, false, false);
    private final ChannelImpl<R> replies = new ChannelImpl<>(null, false, false);
    private final ChannelImpl<Object> turns; // null for a single client
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

    private final class Client implements ConnectionClient<Q, R> {
        @Override
        @Pausable
        public R request(Q request) {
            if (turns == null) {
                requests.out().write(request);
                return replies.in().read();
            }
            turns.out().write(TURN); // waits while another client's transaction is open
            try {
                requests.out().write(request);
                return replies.in().read();
            } finally {
                turns.in().read();
            }
        }
    }

    private final class Server implements ConnectionServer<Q, R>, AltGuard, Waitable {
        @Override
        @Pausable
        public Q accept() {
            return requests.in().read();
        }

        @Override
        @Pausable
        public void reply(R reply) {
            replies.out().write(reply);
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
        public boolean onlyUsedBy(dev.weft.csp.runtime.WorkerPool pool) {
            return requests.in().onlyUsedBy(pool);
        }

        @Override
        public String toString() {
            return "the server end of a connection (" + requests.in() + ")";
        }
    }
}
