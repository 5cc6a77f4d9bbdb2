package dev.weft.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.weft.csp.Alternative;
import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.ConnectionClient;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Client-server connections across nodes: one transaction at a time per client, any number of clients. */
@Timeout(30)
class NetConnectionTest {
    @Test
    void clientsOnTwoNodesGetTheirOwnReplies() {
        try (Nodes nodes = new Nodes(); Scheduler s = Scheduler.create(2)) {
            Node server = nodes.start();
            Node a = nodes.start();
            Node b = nodes.start();
            NetConnectionServer<Integer, Integer> srv = server.connectionServer();
            ConnectionClient<Integer, Integer> ca = a.connectionClient(srv.location());
            ConnectionClient<Integer, Integer> cb = b.connectionClient(srv.location());
            int each = 200;
            One2OneChannel<String> stop = Channel.one2one();
            Weft.run(s, () -> {
                List<CSProcess> ps = new ArrayList<>();
                for (int c = 0; c < 4; c++) {
                    ConnectionClient<Integer, Integer> client = c % 2 == 0 ? ca : cb;
                    int base = c * 1000;
                    ps.add(() -> {
                        for (int i = 0; i < each; i++) {
                            assertEquals(2 * (base + i), client.request(base + i));
                        }
                    });
                }
                CSProcess clients = () -> {
                    Parallel.run(ps.toArray(new CSProcess[0]));
                    stop.out().write("done");
                };
                CSProcess serve = () -> {
                    Alternative alt = new Alternative(stop.in(), srv);
                    while (alt.priSelect() == 1) {
                        srv.reply(2 * srv.accept());
                    }
                    stop.in().read();
                };
                Parallel.run(clients, serve);
            });
        }
    }

    @Test
    void aNamedServerIsFoundByName() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node names = nodes.start(TestCarriers.builder().serveNames());
            Node a = nodes.start(TestCarriers.builder().nameServer(names.address()));
            Node b = nodes.start(TestCarriers.builder().nameServer(names.address()));
            NetConnectionServer<String, String> srv = a.connectionServer("echo");
            Nodes.Party<Void> server = nodes.thread("server", () -> {
                srv.reply("echo: " + srv.accept());
                return null;
            });
            ConnectionClient<String, String> client = b.connectionClient("echo");
            assertEquals("echo: hi", client.request("hi"));
            server.join();
        }
    }

    @Test
    void poisonCrossesAConnectionBothWays() throws Exception {
        try (Nodes nodes = new Nodes()) {
            Node server = nodes.start();
            Node client = nodes.start();
            NetConnectionServer<String, String> srv = server.connectionServer();
            ConnectionClient<String, String> c = client.connectionClient(srv.location());
            Nodes.Party<String> serving = nodes.thread("server", srv::accept);
            serving.awaitBlocked();
            c.poison(); // the client stops the server
            assertInstanceOf(PoisonException.class, serving.failure());

            NetConnectionServer<String, String> srv2 = server.connectionServer();
            ConnectionClient<String, String> c2 = client.connectionClient(srv2.location());
            Nodes.Party<String> asking = nodes.thread("client", () -> c2.request("anyone?"));
            assertEquals("anyone?", srv2.accept());
            srv2.poison(); // the server stops its clients
            assertInstanceOf(PoisonException.class, asking.failure());
        }
    }
}
