package dev.weft.net.launch;

import dev.weft.net.Node;
import java.util.List;

/**
 * What a node of a launched {@link NetProgram} knows: its {@link Node} (whose name server is node 0), its
 * index among the {@code size} nodes (0 is the launching JVM), and the program's arguments.
 *
 * @param node  this node, ready to make and find net channels by name
 * @param index this node's number, from 0 to {@code size - 1}
 * @param size  the number of nodes
 * @param args  the program's arguments, the same on every node
 */
public record Cluster(Node node, int index, int size, List<String> args) {
    /** Checks the parts. */
    public Cluster {
        if (index < 0 || index >= size) {
            throw new IllegalArgumentException("node " + index + " of " + size + " does not exist");
        }
        args = List.copyOf(args);
    }

    /** Argument {@code i} as an int, or {@code otherwise} if there are fewer arguments. */
    public int intArg(int i, int otherwise) {
        return i < args.size() ? Integer.parseInt(args.get(i)) : otherwise;
    }
}
