package dev.weft.net.internal;

import dev.weft.csp.Alternative;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelBuffer;
import dev.weft.csp.Guards;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Timer;
import dev.weft.csp.spi.Extensions;
import dev.weft.net.LinkLostException;
import dev.weft.net.NameNotFoundException;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NodeAddress;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

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

    private static final System.Logger LOG = System.getLogger(NameService.class.getName());
    /** Pauses between attempts to reach a name server that is not up: from the first, doubling to the last. */
    private static final long FIRST_RETRY_MILLIS = 50;
    private static final long LAST_RETRY_MILLIS = 1000;

    private final Endpoints endpoints;
    private final NodeAddress server; // null if this node serves names itself
    private final boolean serving;
    /**
     * Requests waiting for an answer (a location for a resolve, a Boolean for a registration), by request
     * id: each gets one answer, offered; poisoned when the link to the server or this node goes.
     */
    private final Map<Long, One2OneChannel<Object>> pending = new ConcurrentHashMap<>();
    private volatile String serverLostWhy;
    private volatile boolean closing;

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
     * Registers {@code location} (an input of this node) under {@code name}, waiting (pausing a fiber) up to
     * {@code wait} for the server's answer; a server not up yet is asked again until then.
     *
     * @throws IllegalStateException if the name is taken
     * @throws LinkLostException     if the server did not answer within {@code wait}, or closed
     */
    @Pausable
    void register(String name, NetChannelLocation location, Duration wait) {
        check(name);
        boolean ok;
        if (serving) {
            ok = serve(name, location, null);
        } else {
            Object answer = ask(Protocol.NAME_REGISTER, location.id(), name, wait);
            if (answer == null) {
                throw new LinkLostException("the name server " + server + " did not answer the registration of '"
                        + name + "' within " + wait.toMillis() + " ms");
            }
            ok = (Boolean) answer;
        }
        if (!ok) {
            throw taken(name);
        }
    }

    /**
     * The location registered under {@code name}, waiting up to {@code max} for it to be registered; a server
     * not up yet is asked again until then, so that nodes may start in any order.
     */
    @Pausable
    NetChannelLocation resolve(String name, Duration max) {
        check(name);
        NetChannelLocation found;
        if (serving) {
            long request = endpoints.nextId();
            One2OneChannel<Object> answer = expect(request);
            try {
                found = lookupOrWait(name, new Waiter(null, request));
                if (found == null && new Alternative(answer.in(), Guards.timeout(max)).priSelect() == 0) {
                    found = (NetChannelLocation) answer.in().read();
                }
            } catch (PoisonException e) {
                throw new LinkLostException("could not resolve '" + name + "': " + serverLostWhy);
            } finally {
                pending.remove(request);
            }
            if (found == null) {
                forget(name, null, request);
            }
        } else {
            found = (NetChannelLocation) ask(Protocol.NAME_RESOLVE, 0, name, max);
        }
        if (found == null) {
            throw new NameNotFoundException("no net channel is registered as '" + name + "' (waited "
                    + max.toMillis() + " ms" + (serving ? "" : " at the name server " + server) + ")");
        }
        return found;
    }

    /**
     * Asks the remote name server ({@code type}, {@code number}, {@code name}) and returns its answer, or null if
     * none came within {@code max} (a resolve is then forgotten at the server). A server that cannot be reached
     * (not up yet) is asked again after growing pauses while {@code max} lasts, and told once in the log; a
     * server whose link came up and was lost (its names are gone with it), or this node closing, ends the wait
     * with {@link LinkLostException}. Every exception is made here, on the caller's stack.
     */
    @Pausable
    private Object ask(byte type, long number, String name, Duration max) {
        long deadline = deadline(max);
        long pauseMillis = FIRST_RETRY_MILLIS;
        boolean logged = false;
        while (true) {
            long request = endpoints.nextId();
            One2OneChannel<Object> answer = expect(request);
            Link link = null;
            try {
                link = endpoints.link(server);
                link.send(new Frame(type, request, number, utf8(name)));
                if (!link.isLost()) {
                    Duration left = Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
                    if (new Alternative(answer.in(), Guards.timeout(left)).priSelect() == 0) {
                        return answer.in().read();
                    }
                    if (type == Protocol.NAME_RESOLVE) {
                        link.send(new Frame(Protocol.NAME_FORGET, request, 0, utf8(name)));
                    }
                    return null;
                }
            } catch (PoisonException e) {
                // the link was lost while waiting (the answer channel poisoned), or this node is closed
            } finally {
                pending.remove(request);
            }
            String why = link == null ? "this node closed" : link.whyLost();
            if (closing || link == null || link.cameUp()
                    || deadline - System.nanoTime() <= TimeUnit.MILLISECONDS.toNanos(pauseMillis)) {
                throw new LinkLostException("could not ask the name server " + server + " about '" + name + "': "
                        + (closing ? "this node closed" : why));
            }
            if (!logged) {
                logged = true;
                LOG.log(System.Logger.Level.INFO, "the name server " + server + " cannot be reached (" + why
                        + "): asking again about '" + name + "' while the wait lasts");
            }
            Timer.sleep(Duration.ofMillis(pauseMillis));
            pauseMillis = Math.min(2 * pauseMillis, LAST_RETRY_MILLIS);
        }
    }

    /** {@code System.nanoTime()} in {@code max}, saturated: a wait of years is a wait without end. */
    private static long deadline(Duration max) {
        long now = System.nanoTime();
        long nanos = max.compareTo(Duration.ofDays(365 * 100)) >= 0 ? Long.MAX_VALUE / 2 : max.toNanos();
        return now + nanos;
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

    /** Takes the NAME frames; one it cannot take (malformed, or a request to a node that serves no names) is refused. */
    void routeOn(FrameRoutes routes) {
        FrameRoutes.FrameHandler named = (link, f) -> {
            if (!received(link, f)) {
                link.refuse("unknown frame type " + f.type());
            }
        };
        routes.onFrame(Protocol.NAME_REGISTER, named);
        routes.onFrame(Protocol.NAME_RESOLVE, named);
        routes.onFrame(Protocol.NAME_FORGET, named);
        routes.onFrame(Protocol.NAME_ANSWER, named);
    }

    /** Handles a NAME frame; false if {@code f} is not one (or is malformed). */
    private boolean received(Link link, Frame f) {
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
                    answer(f.channel(), f.number() == OK);
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
        closing = true;
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
