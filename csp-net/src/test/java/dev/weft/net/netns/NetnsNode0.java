package dev.weft.net.netns;

import dev.weft.net.launch.LaunchException;
import dev.weft.net.launch.Launcher;
import dev.weft.net.launch.NetProgram;

/**
 * Node 0 of a run in the lab, in a JVM of its own in namespace 0: {@code NetnsNode0 <program class> [args...]}
 * launches the program on itself and two workers started by hand in the other namespaces, prints
 * {@code completed in <ms> ms: <result>} or {@code failed after <ms> ms: <why>}, and exits with 0 or 1.
 */
public final class NetnsNode0 {
    static final int PORT = 7700;

    private NetnsNode0() {
    }

    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        Class<? extends NetProgram<String>> program = (Class<? extends NetProgram<String>>) Class.forName(args[0]);
        String[] programArgs = java.util.Arrays.copyOfRange(args, 1, args.length);
        long start = System.nanoTime();
        try {
            String result = Launcher.builder().bind(NetnsLab.address(0), PORT).remoteNodes(NetnsLab.NODES - 1).build()
                    .run(program, programArgs);
            System.out.println("completed in " + (System.nanoTime() - start) / 1_000_000 + " ms: " + result);
            System.exit(0);
        } catch (LaunchException e) {
            StringBuilder why = new StringBuilder(String.valueOf(e.getMessage()));
            for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                why.append(" <- ").append(t.getClass().getSimpleName()).append(": ").append(t.getMessage());
            }
            System.out.println("failed after " + (System.nanoTime() - start) / 1_000_000 + " ms: " + why);
            System.exit(1);
        }
    }
}
