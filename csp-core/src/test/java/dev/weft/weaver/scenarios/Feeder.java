package dev.weft.weaver.scenarios;

import dev.weft.csp.CSProcess;
import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;

/** Serves a scenario's inputs: waits for a request, replies with the next value; ends after the last. */
final class Feeder implements CSProcess {
    private final int[] values;
    private final One2OneChannel<Integer> requests = Channel.one2one();
    private final One2OneChannel<Integer> replies = Channel.one2one();
    private volatile int served;

    Feeder(int[] values) {
        this.values = values.clone();
    }

    /** The scenario's end of the channels. */
    Source source() {
        return new Source(requests.out(), replies.in(), values.length);
    }

    @Override
    @Pausable
    public void run() {
        try {
            for (int i = 0; i < values.length; i++) {
                requests.in().read();
                replies.out().write(values[i]);
                served = i + 1;
            }
        } catch (PoisonException e) {
            // The scenario ended before taking every value; the harness reports the count.
        }
    }

    /** Releases a feeder still waiting for a request or to deliver a value (the scenario ended early). */
    void stop() {
        requests.in().poison();
        replies.out().poison();
    }

    int served() {
        return served;
    }

    /** Runs the feeder on a plain thread: its pauses block that thread. */
    static final class OnThread extends Thread {
        private final Feeder feeder;

        OnThread(Feeder feeder) {
            super("scenario-feeder");
            this.feeder = feeder;
            setDaemon(true);
        }

        @Override
        public void run() {
            feeder.run();
        }
    }
}
