/**
 * Networked channels in the JCSP.net model: nodes, links, a name server, net channel ends that are ordinary
 * channel inputs and outputs. Built by its own issue; this package is reserved for it.
 */
package dev.weft.net;
