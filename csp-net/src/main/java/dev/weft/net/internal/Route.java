package dev.weft.net.internal;

import dev.weft.net.transport.Link;

/**
 * Where an output sends its values: the link to the node of its input and the input's name there. Until the
 * input moves, that is its location ({@code moves} 0, plain {@link Protocol#DATA} frames); after, its newest
 * home that the output was told of ({@link Protocol#DIRECT} frames, numbered).
 *
 * @param moves   how many times the input had moved when it was at this home
 * @param link    the link to its node
 * @param inputId its name there
 */
record Route(long moves, Link link, long inputId) {
}
