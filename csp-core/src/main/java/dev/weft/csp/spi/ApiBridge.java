package dev.weft.csp.spi;

import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.Fiber;
import dev.weft.csp.Scheduler;
import dev.weft.csp.runtime.Simulation;
import dev.weft.csp.runtime.WorkerPool;

/**
 * The door from {@link Extensions} into the API package's package-private state (channel ends, a fiber's
 * pauses, a scheduler's carriers), so that the SPI lives in a package of its own while those stay hidden: the
 * API package installs its one implementation as it initialises, as the JDK's {@code SharedSecrets} does. Not
 * for libraries: call {@link Extensions}.
 */
public abstract class ApiBridge {
    private static volatile ApiBridge installed;

    /** For the API package alone. */
    protected ApiBridge() {
    }

    /**
     * Installs the API package's implementation; called once, by {@code dev.weft.csp.Fiber} as it initialises.
     *
     * @throws IllegalStateException if one is installed already
     */
    public static synchronized void install(ApiBridge bridge) {
        if (installed != null) {
            throw new IllegalStateException("the API bridge is installed already");
        }
        installed = bridge;
    }

    /** The installed implementation, once the fiber's class (which installs it) has initialised. */
    static ApiBridge installed() {
        try {
            Class.forName(Fiber.class.getName(), true, Fiber.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new ExceptionInInitializerError(e);
        }
        return installed;
    }

    /** See {@link Extensions#usedFromOutside}. */
    protected abstract void usedFromOutside(Object end);

    /** See {@link Extensions#offer}. */
    protected abstract <T> boolean offer(ChannelOutput<T> out, T value);

    /** See {@link Extensions#parkIgnoringCancellation}; a null fiber stands for the calling plain thread's. */
    protected abstract void parkIgnoringCancellation(Object blocker, Fiber fiber);

    /** See {@link Extensions#poll}. */
    protected abstract <T> T poll(ChannelInput<T> in);

    /** See {@link Extensions#awaited}. */
    protected abstract boolean awaited(ChannelInput<?> in);

    /** See {@link Extensions#pool}. */
    protected abstract WorkerPool pool(Scheduler scheduler);

    /** See {@link Extensions#simulated}. */
    protected abstract Scheduler simulated(Simulation simulation);
}
