package dev.weft.maven;

/** A class with nothing to weave, for running the real engine. */
final class Trivial {
    int twice(int x) {
        return 2 * x;
    }
}
