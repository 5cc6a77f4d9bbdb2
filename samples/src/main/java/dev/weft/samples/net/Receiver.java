package dev.weft.samples.net;

import dev.weft.net.NetChannelInput;
import dev.weft.net.Node;
import dev.weft.net.NodeAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The README's networked example, receiving end: registers the input "greetings" at the name server and
 * prints what arrives until "bye". Run: {@code java -cp 'samples/target/classes:samples/target/lib/*'
 * dev.weft.samples.net.Receiver 127.0.0.1:7000} (a name server must be running there).
 */
public final class Receiver {
    private Receiver() {
    }

    /** Receives greetings through the name server at {@code args[0]}. */
    public static void main(String[] args) {
        receive(NodeAddress.parse(args[0]));
    }

    /** Prints and returns what arrives on "greetings", up to and including "bye". */
    public static List<String> receive(NodeAddress nameServer) {
        List<String> got = new ArrayList<>();
        try (Node node = Node.builder().nameServer(nameServer).start()) {
            NetChannelInput<String> in = node.net2one("greetings");
            System.out.println("receiving on " + in.location());
            for (String word = ""; !word.equals("bye"); ) {
                word = in.read();              // a plain thread blocks; a fiber would pause
                System.out.println("got " + word);
                got.add(word);
            }
        }
        return got;
    }
}
