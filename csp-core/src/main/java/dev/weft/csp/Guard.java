package dev.weft.csp;

/** Something an {@code Alternative} can wait for: a channel end, a timeout, a skip. */
public interface Guard {
}
