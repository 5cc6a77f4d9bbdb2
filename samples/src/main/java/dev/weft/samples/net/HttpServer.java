package dev.weft.samples.net;

import dev.weft.csp.Any2AnyChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Weft;
import dev.weft.net.TcpConnection;
import dev.weft.net.TcpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.CompletionException;

/**
 * A small HTTP/1.1 server with keep-alive, a fiber per connection. Routes:
 * <ul>
 *   <li>{@code GET /} says hello;</li>
 *   <li>{@code GET /square?n=12} is answered by a farm of worker fibers over channels;</li>
 *   <li>{@code GET /proxy?path=/square?n=3} fetches {@code path} from this very server with
 *       {@code java.net.http.HttpClient}, the fiber waiting on its {@code CompletableFuture} with {@link Weft#await};</li>
 *   <li>anything else is 404.</li>
 * </ul>
 * {@code java -cp "$NCP" dev.weft.samples.net.HttpServer [port]} (default 8080), then
 * {@code curl localhost:8080/ localhost:8080/square?n=12} (one connection, kept alive).
 */
public final class HttpServer {
    private static final int WORKERS = 4;
    private static final int MAX_HEAD = 8192;

    /** A job for the farm: a number to square, and where the answer goes. */
    private record Job(long n, One2OneChannel<Long> reply) {
    }

    private final TcpServer server;
    private final Any2AnyChannel<Job> jobs = Channel.any2any();
    private final HttpClient client = HttpClient.newHttpClient();

    public HttpServer(TcpServer server) {
        this.server = server;
    }

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        HttpServer http = new HttpServer(TcpServer.bind(new InetSocketAddress("127.0.0.1", port)));
        System.out.println("serving http://" + http.server.address().getHostString() + ":" + http.server.address().getPort() + "/");
        Weft.run(http::serve);
    }

    /** The farm and the acceptor; returns once the server is closed. */
    @Pausable
    public void serve() {
        for (int i = 0; i < WORKERS; i++) {
            Weft.spawn(this::work);
        }
        try {
            for (;;) {
                TcpConnection c = server.accept();
                Weft.spawn(() -> converse(c));
            }
        } catch (IOException e) {
            // closed: stop accepting
        } finally {
            jobs.out().poison(); // the workers end
        }
    }

    @Pausable
    private void work() {
        for (;;) {
            Job job;
            try {
                job = jobs.in().read();
            } catch (dev.weft.csp.PoisonException e) {
                return;
            }
            job.reply().out().write(job.n() * job.n());
        }
    }

    /** One connection: requests answered in turn until the client closes or asks to. */
    @Pausable
    private void converse(TcpConnection c) {
        try (c) {
            ByteBuffer in = ByteBuffer.allocate(MAX_HEAD);
            for (;;) {
                String head = readHead(c, in);
                if (head == null) {
                    return;
                }
                String[] lines = head.split("\r\n");
                String[] request = lines[0].split(" ");
                boolean keepAlive = request.length == 3 && request[2].equals("HTTP/1.1");
                for (String line : lines) {
                    if (line.toLowerCase(Locale.ROOT).startsWith("connection:")) {
                        keepAlive = !line.toLowerCase(Locale.ROOT).contains("close");
                    }
                }
                String target = request.length > 1 ? request[1] : "/";
                respond(c, request[0].equals("GET") ? route(target) : new String[] {"405 Method Not Allowed", "GET only\n"},
                        keepAlive);
                if (!keepAlive) {
                    return;
                }
            }
        } catch (IOException e) {
            // reset by the client, or the server closed
        }
    }

    /** A request's head (up to the blank line), or null at the end of the stream; what follows stays in {@code in}. */
    @Pausable
    private static String readHead(TcpConnection c, ByteBuffer in) throws IOException {
        for (;;) {
            int end = indexOfBlankLine(in);
            if (end >= 0) {
                String head = new String(in.array(), 0, end, StandardCharsets.ISO_8859_1);
                in.flip().position(end + 4);
                in.compact();
                return head;
            }
            if (!in.hasRemaining()) {
                throw new IOException("request head longer than " + MAX_HEAD + " bytes");
            }
            if (c.read(in) < 0) {
                return null;
            }
        }
    }

    private static int indexOfBlankLine(ByteBuffer in) {
        byte[] b = in.array();
        for (int i = 0; i + 3 < in.position(); i++) {
            if (b[i] == '\r' && b[i + 1] == '\n' && b[i + 2] == '\r' && b[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** The status and body for {@code target}. */
    @Pausable
    private String[] route(String target) {
        if (target.equals("/")) {
            return new String[] {"200 OK", "hello from a fiber\n"};
        }
        if (target.startsWith("/square?n=")) {
            long n;
            try {
                n = Long.parseLong(target.substring("/square?n=".length()));
            } catch (NumberFormatException e) {
                return new String[] {"400 Bad Request", "n must be a whole number\n"};
            }
            One2OneChannel<Long> reply = Channel.one2one();
            jobs.out().write(new Job(n, reply));
            return new String[] {"200 OK", reply.in().read() + "\n"};
        }
        if (target.startsWith("/proxy?path=/")) {
            URI uri = URI.create("http://127.0.0.1:" + server.address().getPort() + target.substring("/proxy?path=".length()));
            try {
                HttpResponse<String> r = Weft.await(client.sendAsync(HttpRequest.newBuilder(uri).build(),
                        HttpResponse.BodyHandlers.ofString()));
                return new String[] {"200 OK", "fetched " + uri.getPath() + ": " + r.statusCode() + " " + r.body()};
            } catch (CompletionException e) {
                return new String[] {"502 Bad Gateway", "cannot fetch " + uri + ": " + e.getCause() + "\n"};
            }
        }
        return new String[] {"404 Not Found", "no route for " + target + "\n"};
    }

    @Pausable
    private static void respond(TcpConnection c, String[] statusAndBody, boolean keepAlive) throws IOException {
        byte[] body = statusAndBody[1].getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + statusAndBody[0] + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: "
                + body.length + (keepAlive ? "" : "\r\nConnection: close") + "\r\n\r\n";
        byte[] h = head.getBytes(StandardCharsets.ISO_8859_1);
        c.write(ByteBuffer.allocate(h.length + body.length).put(h).put(body).flip());
    }

    /** Closes the listening socket and every connection: {@link #serve()} returns. */
    public void close() {
        server.close();
    }

    public InetSocketAddress address() {
        return server.address();
    }
}
