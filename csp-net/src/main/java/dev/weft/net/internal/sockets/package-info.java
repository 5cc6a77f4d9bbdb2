/**
 * Internal: where the sockets of {@link dev.weft.net.TcpServer} and {@link dev.weft.net.TcpConnection} live (which
 * Netty event loop), for csp-net itself (no compatibility promised).
 */
package dev.weft.net.internal.sockets;
