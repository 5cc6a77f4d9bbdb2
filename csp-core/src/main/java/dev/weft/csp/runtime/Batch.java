package dev.weft.csp.runtime;

/**
 * CCSP's unit of work and of migration: fibers that ran together, queued together. A worker runs one batch
 * at a time; batches wait in its run queue, and an idle worker steals whole batches.
 */
final class Batch extends FiberQueue {
    /** The next batch in a worker's private overflow list. */
    Batch link;
}
