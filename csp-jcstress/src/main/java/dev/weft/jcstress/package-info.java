/**
 * jcstress tests of Weft's channel protocols: rendezvous, buffered hand-off, alternation over input and output
 * guards, and poison. Each actor is a plain thread calling channel operations in thread mode (this module is
 * woven), and every actor returns in every interleaving: jcstress runs the actors of one test at once, so a
 * blocking operation always meets its partner, and a value nobody will take goes to a buffer with room.
 *
 * <p>jcstress 0.16 gives each actor a CPU of its own and skips a test with more actors than the machine has
 * CPUs, so every test here has two actors (plus an arbiter, which runs after them), to run on two cores.
 */
package dev.weft.jcstress;
