package dev.weft.csp;

import java.util.ArrayDeque;

/**
 * A channel for every kind of end (shared or not) and every buffer: waiting readers and writers queue in
 * FIFO order under the channel's lock; the lock is never held across a pause. A waiting writer's value
 * rides in its fiber until a reader (or free buffer space) takes it.
 */
final class QueuedChannel<T> implements One2OneChannel<T>, Any2OneChannel<T>, One2AnyChannel<T>,
        Any2AnyChannel<T>, AltingChannelInput<T>, AltingChannelOutput<T>, SharedChannelInput<T>,
        SharedChannelOutput<T> {
    private static final Object POISON = new Object();

    private final ChannelBuffer<T> buffer; // null: synchronous
    private final boolean sharedReaders;
    private final boolean sharedWriters;
    private ArrayDeque<Fiber> readers;
    private ArrayDeque<Fiber> writers;
    private boolean poisoned;

    QueuedChannel(ChannelBuffer<T> buffer, boolean sharedReaders, boolean sharedWriters) {
        ChannelBuffer<T> b = buffer == null ? null : buffer.claim();
        this.buffer = b == null || b.isSynchronous() ? null : b;
        this.sharedReaders = sharedReaders;
        this.sharedWriters = sharedWriters;
    }

    @Override
    public QueuedChannel<T> in() {
        return this;
    }

    @Override
    public QueuedChannel<T> out() {
        return this;
    }

    @Override
    @Pausable
    @SuppressWarnings("unchecked")
    public T read() {
        Fiber me = Fiber.current();
        Fiber writer;
        Object value;
        synchronized (this) {
            if (poisoned) {
                throw poisoned();
            }
            writer = writers == null ? null : writers.pollFirst();
            if (buffer != null && !buffer.isEmpty()) {
                value = buffer.take();
                if (writer != null) {
                    buffer.put((T) writer.transfer); // the freed space takes the first waiting writer's value
                }
            } else if (writer != null) {
                value = writer.transfer;
            } else {
                if (!sharedReaders && readers != null && !readers.isEmpty()) {
                    throw new IllegalStateException("two processes read the single-reader input of a channel at"
                            + " once; use a one2any or any2any channel to share the input");
                }
                if (readers == null) {
                    readers = new ArrayDeque<>(2);
                }
                readers.addLast(me);
                value = null;
            }
            if (writer != null) {
                writer.transfer = null;
            }
        }
        if (writer != null) {
            writer.unpark();
            return (T) value;
        }
        if (value != null) {
            return (T) value;
        }
        Fiber.parkOn(this);
        Object v = me.transfer;
        me.transfer = null;
        if (v == POISON) {
            throw poisoned();
        }
        return (T) v;
    }

    @Override
    @Pausable
    public void write(T value) {
        if (value == null) {
            throw new NullPointerException("cannot write null to a channel");
        }
        Fiber me = Fiber.current();
        Fiber reader;
        synchronized (this) {
            if (poisoned) {
                throw poisoned();
            }
            reader = readers == null ? null : readers.pollFirst();
            if (reader != null) {
                reader.transfer = value;
            } else if (buffer != null && buffer.hasSpace()) {
                buffer.put(value);
                return;
            } else {
                if (!sharedWriters && writers != null && !writers.isEmpty()) {
                    throw new IllegalStateException("two processes write the single-writer output of a channel at"
                            + " once; use an any2one or any2any channel to share the output");
                }
                if (writers == null) {
                    writers = new ArrayDeque<>(2);
                }
                me.transfer = value;
                writers.addLast(me);
            }
        }
        if (reader != null) {
            reader.unpark();
            return;
        }
        Fiber.parkOn(this);
        Object v = me.transfer;
        me.transfer = null;
        if (v == POISON) {
            throw poisoned();
        }
    }

    @Override
    public synchronized boolean pending() {
        return !poisoned && ((buffer != null && !buffer.isEmpty()) || (writers != null && !writers.isEmpty()));
    }

    @Override
    public void poison() {
        ArrayDeque<Fiber> r;
        ArrayDeque<Fiber> w;
        synchronized (this) {
            if (poisoned) {
                return;
            }
            poisoned = true;
            if (buffer != null) {
                buffer.clear();
            }
            r = readers;
            w = writers;
            readers = null;
            writers = null;
        }
        wakePoisoned(r);
        wakePoisoned(w);
    }

    private static void wakePoisoned(ArrayDeque<Fiber> waiting) {
        if (waiting != null) {
            for (Fiber f : waiting) {
                f.transfer = POISON;
                f.unpark();
            }
        }
    }

    private static PoisonException poisoned() {
        return new PoisonException("the channel is poisoned");
    }
}
