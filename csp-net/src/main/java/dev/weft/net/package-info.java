/**
 * Networked channels in the JCSP.net model: a {@link dev.weft.net.Node} per JVM, one link per pair of nodes
 * with every channel between them multiplexed over it, a name server, and net channel ends that are ordinary
 * channel inputs and outputs, so a process does not know whether its channel is local or networked; and
 * sockets that fibers use as Go's goroutines do ({@link dev.weft.net.TcpServer}, {@link dev.weft.net.TcpConnection}).
 *
 * <p>This package is the API and holds nothing else. csp-net's packages:
 * <ul>
 *   <li>API: {@code dev.weft.net}; {@code dev.weft.net.codec} (the default codec, {@code KryoCodec});
 *       {@code dev.weft.net.launch} (running a program on several JVMs); {@code dev.weft.net.poll} (the carriers'
 *       Netty event loops, for other code that registers Netty channels on them).</li>
 *   <li>Internal, for csp-net itself (no compatibility promised): {@code dev.weft.net.internal} (the channel layer:
 *       ends, lanes, credit, mobile inputs, names, its frames), {@code dev.weft.net.internal.sockets} (where the
 *       sockets of {@code TcpServer} and {@code TcpConnection} live) and {@code dev.weft.net.transport} (links
 *       between nodes: handshake, heartbeat, framing). The API reaches the channel layer through one class,
 *       {@code dev.weft.net.internal.NodeEnds}.</li>
 * </ul>
 */
package dev.weft.net;
