package dev.weft.net;

import dev.weft.csp.Alternative;
import dev.weft.csp.CancelledException;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.csp.Extensions;
import dev.weft.csp.Guards;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * Names of net inputs, as one node sees them. The name server's table lives on the node that serves names;
 * every other node asks it over its link ({@link Protocol}'s NAME frames). A name is a lease held by the node
 * of its input: the server drops it when that node's link is lost or the node closes. A resolve waits until
 * the name is registered.
 *
 * <p>On the wire a name is UTF-8 text, and a registration names only the input's id: the server takes its
 * node from the link it came on, so a node can only register its own inputs.
 */
final class NameService {
    static final int MAX_NAME_CHARS = 1024;
    private static final long OK = 0;
    private static final long TAKEN = 1;

    private final Endpoints endpoints;
    private final NodeAddress server; // null if this node serves names itself
    private final boolean serving;
    /** The client's resolves waiting for an answer, by request id: each gets one answer, offered. */
    private final Map<Long, One2OneChannel<Object>> pending = new ConcurrentHashMap<>();
    /** The client's registrations waiting for an answer, by request id. */
    private final Map<Long, CompletableFuture<Boolean>> registrations = new ConcurrentHashMap<>();
    private volatile String serverLostWhy;

    // The server's table, under this object's monitor.
    private final Map<String, Entry> names = new HashMap<>();
    private final Map<String, List<Waiter>> waiting = new HashMap<>();

    /** A registered name: its input and the link of the node that holds it (null: this node). */
    private record Entry(NetChannelLocation location, Link owner) {
    }

    /** A resolve waiting for its name: a remote request, or (link null) one of this node's. */
    private record Waiter(Link link, long request) {
    }

    NameService(Endpoints endpoints, boolean serving, NodeAddress server) {
        this.endpoints = endpoints;
        this.serving = serving;
        this.server = server;
    }

    /**
     * Registers {@code location} (an input of this node) under {@code name}; waits for the server's answer
     * (this blocks the calling thread for one round trip to a remote server).
     *
     * @throws IllegalStateException if the name is taken
     */
    void register(String name, NetChannelLocation location, Duration wait) {
        check(name);
        if (serving) {
            if (!serve(name, location, null)) {
                throw taken(name);
            }
            return;
        }
        long request = endpoints.nextId();
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        registrations.put(request, answer);
        boolean ok;
        try {
            Link link = endpoints.link(server);
            link.send(new Frame(Protocol.NAME_REGISTER, request, location.id(), utf8(name)));
            if (link.isLost()) {
                throw serverGone(link);
            }
            if (!endpoints.await(answer, wait.toNanos())) { // on a carrier: drives the node's loop meanwhile
                throw new TimeoutException();
            }
            ok = answer.get();
        } catch (TimeoutException e) {
            throw new LinkLostException("the name server " + server + " did not answer the registration of '"
                    + name + "' within " + wait.toMillis() + " ms");
        } catch (ExecutionException e) {
            throw (RuntimeException) e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CancelledException("interrupted while registering '" + name + "' at the name server");
        } finally {
            registrations.remove(request);
        }
        if (!ok) {
            throw taken(name);
        }
    }

    /** The location registered under {@code name}, waiting up to {@code max} for it to be registered. */
    @Pausable
    NetChannelLocation resolve(String name, Duration max) {
        check(name);
        long request = endpoints.nextId();
        One2OneChannel<Object> answer = expect(request);
        Link link = null;
        if (serving) {
            NetChannelLocation known = lookupOrWait(name, new Waiter(null, request));
            if (known != null) {
                pending.remove(request);
                return known;
            }
        } else {
            link = endpoints.link(server);
            link.send(new Frame(Protocol.NAME_RESOLVE, request, 0, utf8(name)));
            if (link.isLost()) {
                pending.remove(request);
                throw serverGone(link);
            }
        }
        try {
            int chosen = new Alternative(answer.in(), Guards.timeout(max)).priSelect();
            if (chosen == 0) {
                return (NetChannelLocation) answer.in().read();
            }
        } catch (PoisonException e) {
            throw new LinkLostException("could not resolve '" + name + "': " + serverLostWhy);
        } finally {
            pending.remove(request);
        }
        if (serving) {
            forget(name, null, request);
        } else {
            link.send(new Frame(Protocol.NAME_FORGET, request, 0, utf8(name)));
        }
        throw new NameNotFoundException("no net channel is registered as '" + name + "' (waited "
                + max.toMillis() + " ms" + (serving ? "" : " at the name server " + server) + ")");
    }

    private One2OneChannel<Object> expect(long request) {
        One2OneChannel<Object> answer = Channel.one2one(ChannelBuffer.fixed(1));
        Extensions.usedFromOutside(answer.in());
        pending.put(request, answer);
        return answer;
    }

    private void answer(long request, Object value) {
        One2OneChannel<Object> a = pending.get(request);
        if (a != null) {
            Extensions.offer(a.out(), value);
        }
    }

    // ------------------------------------------------------------------------------- the server's table

    /** Registers unless taken; answers the resolves waiting for the name. */
    private boolean serve(String name, NetChannelLocation location, Link owner) {
        List<Waiter> toAnswer;
        synchronized (this) {
            if (names.containsKey(name)) {
                return false;
            }
            names.put(name, new Entry(location, owner));
            toAnswer = waiting.remove(name);
        }
        if (toAnswer != null) {
            for (Waiter w : toAnswer) {
                if (w.link == null) {
                    answer(w.request, location);
                } else {
                    w.link.send(new Frame(Protocol.NAME_ANSWER, w.request, OK, utf8(location.toString())));
                }
            }
        }
        return true;
    }

    private synchronized NetChannelLocation lookupOrWait(String name, Waiter w) {
        Entry e = names.get(name);
        if (e != null) {
            return e.location;
        }
        waiting.computeIfAbsent(name, n -> new ArrayList<>()).add(w);
        return null;
    }

    private synchronized void forget(String name, Link link, long request) {
        List<Waiter> ws = waiting.get(name);
        if (ws != null) {
            ws.removeIf(w -> w.link == link && w.request == request);
            if (ws.isEmpty()) {
                waiting.remove(name);
            }
        }
    }

    // ----------------------------------------------------------------------------- frames, on event loops

    /** Handles a NAME frame; false if {@code f} is not one (or is malformed). */
    boolean received(Link link, Frame f) {
        switch (f.type()) {
            case Protocol.NAME_REGISTER:
            case Protocol.NAME_RESOLVE:
            case Protocol.NAME_FORGET: {
                if (!serving) {
                    return false; // a node that does not serve names was asked to
                }
                String name = text(f.payload());
                if (name == null) {
                    return false;
                }
                if (f.type() == Protocol.NAME_REGISTER) {
                    boolean ok = f.number() > 0 && serve(name, new NetChannelLocation(link.peer(), f.number()), link);
                    link.send(new Frame(Protocol.NAME_ANSWER, f.channel(), ok ? OK : TAKEN));
                } else if (f.type() == Protocol.NAME_RESOLVE) {
                    NetChannelLocation known = lookupOrWait(name, new Waiter(link, f.channel()));
                    if (known != null) {
                        link.send(new Frame(Protocol.NAME_ANSWER, f.channel(), OK, utf8(known.toString())));
                    }
                } else {
                    forget(name, link, f.channel());
                }
                return true;
            }
            case Protocol.NAME_ANSWER: {
                if (f.payload().length == 0) { // a registration's answer
                    CompletableFuture<Boolean> r = registrations.get(f.channel());
                    if (r != null) {
                        r.complete(f.number() == OK);
                    }
                    return true;
                }
                String text = text(f.payload());
                NetChannelLocation location;
                try {
                    location = text == null ? null : NetChannelLocation.parse(text);
                } catch (IllegalArgumentException e) {
                    return false;
                }
                if (location == null) {
                    return false;
                }
                answer(f.channel(), location);
                return true;
            }
            default:
                return false;
        }
    }

    /**
     * A link is gone: on the server, the names its node held are dropped and its waiting resolves forgotten;
     * on a client whose server it was, every request waiting for the server fails.
     */
    void lost(Link link, String why) {
        if (!serving && link.peer().equals(server)) {
            serverLostWhy = "the link to the name server " + server + " was lost: " + why;
            for (CompletableFuture<Boolean> r : registrations.values()) {
                r.completeExceptionally(new LinkLostException("the link to the name server " + server
                        + " was lost: " + why));
            }
            for (One2OneChannel<Object> a : pending.values()) {
                a.in().poison();
            }
            return;
        }
        synchronized (this) {
            names.values().removeIf(e -> e.owner == link);
            for (Iterator<List<Waiter>> it = waiting.values().iterator(); it.hasNext(); ) {
                List<Waiter> ws = it.next();
                ws.removeIf(w -> w.link == link);
                if (ws.isEmpty()) {
                    it.remove();
                }
            }
        }
    }

    /** This node closes: its own names are dropped, and its waiting resolves and registrations fail. */
    void close() {
        synchronized (this) {
            names.values().removeIf(e -> e.owner == null);
        }
        serverLostWhy = "this node closed";
        for (CompletableFuture<Boolean> r : registrations.values()) {
            r.completeExceptionally(new LinkLostException("this node closed while registering a name"));
        }
        for (One2OneChannel<Object> a : pending.values()) {
            a.in().poison();
        }
    }

    // --------------------------------------------------------------------------------------- helpers

    private static void check(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_NAME_CHARS) {
            throw new IllegalArgumentException("a channel name is 1 to " + MAX_NAME_CHARS + " characters, got "
                    + (name == null ? "null" : name.length() + " characters"));
        }
    }

    private LinkLostException serverGone(Link link) {
        String why = serverLostWhy;
        return new LinkLostException(why != null ? why : "the link to the name server " + server + " is lost");
    }

    private static IllegalStateException taken(String name) {
        return new IllegalStateException("the name '" + name + "' is already registered at the name server");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The text of a payload, or null if it is not a valid name. */
    private static String text(byte[] payload) {
        if (payload.length == 0 || payload.length > 4 * MAX_NAME_CHARS + 64) {
            return null;
        }
        return new String(payload, StandardCharsets.UTF_8);
    }
}
