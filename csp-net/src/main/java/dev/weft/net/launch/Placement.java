package dev.weft.net.launch;

import dev.weft.net.NodeAddress;
import java.util.Map;

/**
 * Where a task of a cluster engine stands in a launched program, as the engine's environment says: its node's
 * index and the number of nodes, where node 0 listens, the host this task listens on, and how the engine
 * names the task (for messages). Node 0 listens on exactly the host name the others dial: a node's address is
 * its identity.
 *
 * @param index index of this task's node, from 0
 * @param size  the number of nodes
 * @param node0 where node 0 listens: its host as every task derives it, and a port known in advance
 * @param host  the host this task listens on: node 0's host for node 0, else its own
 * @param label how the engine names this task: {@code slurm task 2 on c7}, {@code pod sum-2}
 */
record Placement(int index, int size, NodeAddress node0, String host, String label) {
    /** Checks the parts. */
    Placement {
        if (size < 1 || index < 0 || index >= size) {
            throw new IllegalArgumentException("task " + index + " of " + size + " is not a node of the run");
        }
    }

    /** Variable {@code name} of {@code env}, which must be set: {@code what} says which engine sets it. */
    static String require(Map<String, String> env, String name, String what) {
        String v = env.get(name);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(name + " is not set: " + what);
        }
        return v.trim();
    }

    /** Variable {@code name} of {@code env} as a number, which must be set. */
    static int requireInt(Map<String, String> env, String name, String what) {
        String v = require(env, name, what);
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is '" + v + "', not a number", e);
        }
    }
}
