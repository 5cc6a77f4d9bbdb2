package dev.weft.delivery;

import dev.weft.csp.Fiber;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A program for JfrTest, run in a child JVM: spawns and joins 100 fibers, at once ({@code now}) or each time a
 * line comes on standard input, saying "ready" before it waits and "done" after each round; ends at the end of
 * its input. Waiting for input, it has run one round already: its runtime ran before any recorder was up.
 */
public final class SpawnsOnCue {
    static final int FIBERS = 100;

    private SpawnsOnCue() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("now")) {
            round();
            return;
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        round();
        System.out.println("ready");
        System.out.flush();
        while (in.readLine() != null) {
            round();
            System.out.println("done");
            System.out.flush();
        }
    }

    private static void round() {
        try (Scheduler s = Scheduler.create(2)) {
            Weft.run(s, () -> {
                List<Fiber> fibers = new ArrayList<>();
                for (int i = 0; i < FIBERS; i++) {
                    fibers.add(Weft.spawn(() -> { }));
                }
                for (Fiber f : fibers) {
                    f.join();
                }
            });
        }
    }
}
