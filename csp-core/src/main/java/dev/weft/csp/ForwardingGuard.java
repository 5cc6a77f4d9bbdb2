package dev.weft.csp;

/**
 * A guard that is ready exactly when another Weft guard is: an {@link Alternative} waits on {@link #guard()}
 * in its place. This is how a library builds channel ends of its own on top of Weft's (csp-net's network
 * inputs forward to the local channel that their values arrive on); programs do not need it.
 */
public interface ForwardingGuard extends Guard {
    /** The guard that stands for this one: a channel end, a connection server, a guard of {@link Guards}. */
    Guard guard();
}
