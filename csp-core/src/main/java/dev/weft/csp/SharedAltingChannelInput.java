package dev.weft.csp;

/**
 * The shared input of a one2any or any2any channel, usable as a guard: any number of processes read it, some
 * in plain reads, some in alternatives, served in arrival order. Each alternative that selects it then reads.
 */
public interface SharedAltingChannelInput<T> extends SharedChannelInput<T>, AltingChannelInput<T> {
}
