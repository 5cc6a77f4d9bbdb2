/**
 * Networked channels in the JCSP.net model: a {@link dev.weft.net.Node} per JVM, one link per pair of nodes
 * with every channel between them multiplexed over it, a name server, and net channel ends that are ordinary
 * channel inputs and outputs, so a process does not know whether its channel is local or networked.
 */
package dev.weft.net;
