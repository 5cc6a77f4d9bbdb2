package dev.weft.net;

/**
 * Where a net channel input lives: its node and its number there. A location is a value: it can be sent
 * over net channels, so that a network of processes wires itself at run time.
 *
 * @param node the node of the input
 * @param id   the input's number on that node (positive)
 */
public record NetChannelLocation(NodeAddress node, long id) {
    private static final String SCHEME = "weft://";

    /** Checks the parts. */
    public NetChannelLocation {
        if (node == null) {
            throw new IllegalArgumentException("a channel location needs a node");
        }
        if (id <= 0) {
            throw new IllegalArgumentException("a channel id is positive, got " + id);
        }
    }

    /**
     * Parses {@code weft://host:port/id}, the form of {@link #toString()}.
     *
     * @throws IllegalArgumentException saying what is wrong with {@code text}
     */
    public static NetChannelLocation parse(String text) {
        if (text == null || !text.startsWith(SCHEME)) {
            throw new IllegalArgumentException("'" + text + "' is not a channel location (" + SCHEME + "host:port/id)");
        }
        int slash = text.lastIndexOf('/');
        if (slash < SCHEME.length()) {
            throw new IllegalArgumentException("'" + text + "' has no /id after host:port");
        }
        long id;
        try {
            id = Long.parseLong(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' does not end with a channel number");
        }
        return new NetChannelLocation(NodeAddress.parse(text.substring(SCHEME.length(), slash)), id);
    }

    /** {@code weft://host:port/id}. */
    @Override
    public String toString() {
        return SCHEME + node + "/" + id;
    }
}
