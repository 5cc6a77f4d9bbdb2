package dev.weft.samples.net;

import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import dev.weft.net.NodeAddress;
import java.util.Arrays;
import java.util.List;

/**
 * The README's networked example, sending end: finds "greetings" by name and writes each word, then "bye".
 * Run: {@code java -cp 'samples/target/classes:samples/target/lib/*' dev.weft.samples.net.Sender
 * 127.0.0.1:7000 hello world}.
 */
public final class Sender {
    private Sender() {
    }

    /** Sends {@code args[1..]} then "bye" through the name server at {@code args[0]}. */
    public static void main(String[] args) {
        send(NodeAddress.parse(args[0]), Arrays.asList(args).subList(1, args.length));
    }

    /** Writes each word, then "bye", to the input registered as "greetings" (waiting for it to appear). */
    public static void send(NodeAddress nameServer, List<String> words) {
        try (Node node = Node.builder().nameServer(nameServer).start()) {
            NetChannelOutput<String> out = node.one2net("greetings");
            for (String word : words) {
                out.write(word);               // returns once the receiver has read it
            }
            out.write("bye");
        }
    }
}
