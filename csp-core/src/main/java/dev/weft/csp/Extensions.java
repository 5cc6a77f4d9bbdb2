package dev.weft.csp;

/**
 * What libraries built on Weft need beyond the public API (csp-net uses it); programs do not need it.
 */
public final class Extensions {
    private Extensions() {
    }

    /**
     * Marks the channel of {@code end} as used by a party outside every scheduler (a network event loop),
     * so that a fiber waiting on it is never reported as deadlocked: that party may still come.
     *
     * @throws IllegalArgumentException if {@code end} is not an end of a channel made by {@link Channel}
     */
    public static void usedFromOutside(Object end) {
        if (!(end instanceof ChannelImpl<?>.End)) {
            throw new IllegalArgumentException("not an end of a Weft channel: " + end);
        }
        ((ChannelImpl<?>.End) end).markOutsideUse();
    }
}
