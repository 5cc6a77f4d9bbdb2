package dev.weft.samples.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import dev.weft.net.TcpServer;
import java.io.File;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The echo and HTTP servers, served by fibers, tried with a plain socket, java.net.http and curl. */
@Timeout(120)
class NetServersTest {
    private static InetSocketAddress anyPort() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    @Test
    void theEchoServerSendsBackWhatItReads() throws Exception {
        try (Scheduler s = Scheduler.create(2); TcpServer server = TcpServer.bind(anyPort())) {
            Weft.spawn(s, () -> EchoServer.serve(server));
            for (int i = 0; i < 3; i++) {
                try (Socket c = new Socket(server.address().getAddress(), server.address().getPort())) {
                    OutputStream out = c.getOutputStream();
                    out.write(("hello " + i).getBytes(StandardCharsets.UTF_8));
                    c.shutdownOutput();
                    assertEquals("hello " + i, new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        }
    }

    /** Each route, over one kept-alive connection of java.net.http's client (HTTP/1.1). */
    @Test
    void theHttpServerAnswersItsRoutes() throws Exception {
        try (Scheduler s = Scheduler.create(2)) {
            HttpServer http = new HttpServer(TcpServer.bind(anyPort()));
            Weft.spawn(s, http::serve);
            try {
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                String base = "http://127.0.0.1:" + http.address().getPort();
                assertEquals("200 hello from a fiber\n", get(client, base + "/"));
                assertEquals("200 144\n", get(client, base + "/square?n=12"));
                assertEquals("200 fetched /square: 200 9\n", get(client, base + "/proxy?path=/square?n=3"));
                assertEquals("404 no route for /nothing\n", get(client, base + "/nothing"));
                for (int i = 0; i < 50; i++) {
                    assertEquals("200 " + (long) i * i + "\n", get(client, base + "/square?n=" + i));
                }
            } finally {
                http.close();
            }
        }
    }

    private static String get(HttpClient client, String url) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }

    /** curl with two URLs uses one connection: it says so on stderr when it reuses it. */
    @Test
    void curlKeepsTheConnectionAlive() throws Exception {
        assumeTrue(onPath("curl"), "curl is not installed");
        try (Scheduler s = Scheduler.singleThreaded()) {
            HttpServer http = new HttpServer(TcpServer.bind(anyPort()));
            Weft.spawn(s, http::serve);
            try {
                String base = "http://127.0.0.1:" + http.address().getPort();
                Process curl = new ProcessBuilder("curl", "-sS", "-v", "--max-time", "20", base + "/", base + "/square?n=7")
                        .start();
                String out = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                String err = new String(curl.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                curl.waitFor(30, TimeUnit.SECONDS);
                assertEquals(0, curl.exitValue(), err);
                assertEquals("hello from a fiber\n49\n", out);
                assertEquals(true, err.contains("Re-using existing connection") || err.contains("Reusing existing"), err);
            } finally {
                http.close();
            }
        }
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (new File(dir, tool).canExecute()) {
                return true;
            }
        }
        return false;
    }
}
