/**
 * Internal: the channel layer of csp-net, for csp-net itself (no compatibility promised). A node's net ends
 * ({@code NetInput}, {@code NetOutput} and its {@code Lane}s), the credit protocol between them, mobile inputs
 * ({@code InputMove}, {@code Forwarder}), names ({@code NameService}) and barrier coordination, over the frames of
 * {@code Protocol}, which {@code FrameRoutes} hands to one handler per concern. The public API
 * ({@link dev.weft.net.Node}) reaches it through {@link dev.weft.net.internal.NodeEnds} only; everything else here
 * is package-private.
 */
package dev.weft.net.internal;
