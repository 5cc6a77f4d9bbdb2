package dev.weft.net;

/**
 * Where a node listens: a host and a port.
 *
 * @param host a host name or IP address, never empty
 * @param port 0 to 65535 (0 only when binding: a free port)
 */
public record NodeAddress(String host, int port) {
    /** Checks the parts. */
    public NodeAddress {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("a node address needs a host, got " + (host == null ? "null" : "'" + host + "'"));
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range 0..65535");
        }
    }

    /**
     * Parses {@code host:port} ({@code [v6]:port} for an IPv6 address).
     *
     * @throws IllegalArgumentException saying what is wrong with {@code text}
     */
    public static NodeAddress parse(String text) {
        if (text == null) {
            throw new IllegalArgumentException("cannot parse a node address from null");
        }
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not host:port");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' has no port number after its last ':'");
        }
        return new NodeAddress(host, port);
    }

    // equals and hashCode written out: a record's own link through ObjectMethods on first use, which spins some
    // twenty method-handle classes in every JVM that starts a node (an address is a map key from the start).

    /** Equal to another address of the same host text and port. */
    @Override
    public boolean equals(Object o) {
        return o instanceof NodeAddress a && port == a.port && host.equals(a.host);
    }

    @Override
    public int hashCode() {
        return 31 * host.hashCode() + port;
    }

    /** {@code host:port}, the form {@link #parse} reads. */
    @Override
    public String toString() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }
}
