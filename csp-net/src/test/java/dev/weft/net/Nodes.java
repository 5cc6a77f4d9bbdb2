package dev.weft.net;

import dev.weft.csp.Fiber;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/** Nodes on loopback for a test, closed together; and plain threads that block in net operations. */
public final class Nodes implements AutoCloseable {
    private final List<Node> started = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    public Node start() {
        return add(TestCarriers.builder().start());
    }

    public Node start(Node.Builder b) {
        return add(b.start());
    }

    public Node add(Node n) {
        started.add(n);
        return n;
    }

    /** Starts {@code body} on a plain thread; {@link Party#join()} returns its result or rethrows its failure. */
    public <T> Party<T> thread(String name, Callable<T> body) {
        Party<T> p = new Party<>(name, body);
        threads.add(p.thread);
        p.thread.start();
        return p;
    }

    @Override
    public void close() {
        for (Node n : started) {
            n.close();
        }
        for (Thread t : threads) {
            t.interrupt();
        }
    }

    /** Waits until plain thread {@code t} blocks in a pausable operation (thread mode parks on its own fiber). */
    public static void awaitBlocked(Thread t) {
        while (!(LockSupport.getBlocker(t) instanceof Fiber)) {
            if (!t.isAlive()) {
                throw new AssertionError(t.getName() + " ended instead of blocking");
            }
            if (Thread.currentThread().isInterrupted()) {
                throw new AssertionError("interrupted (timed out?) while waiting for " + t.getName() + " to block");
            }
            Thread.onSpinWait();
        }
    }

    /** A plain thread running a net operation. */
    public static final class Party<T> {
        public final Thread thread;
        private final AtomicReference<Object> outcome = new AtomicReference<>();

        Party(String name, Callable<T> body) {
            thread = new Thread(() -> {
                try {
                    outcome.set(new Object[] {body.call()});
                } catch (Throwable t) {
                    outcome.set(t);
                }
            }, name);
            thread.setDaemon(true);
        }

        public boolean isDone() {
            return outcome.get() != null;
        }

        public void awaitBlocked() {
            Nodes.awaitBlocked(thread);
        }

        @SuppressWarnings("unchecked")
        public T join() throws Exception {
            thread.join();
            Object o = outcome.get();
            if (o instanceof Exception) {
                throw (Exception) o;
            }
            if (o instanceof Error) {
                throw (Error) o;
            }
            return (T) ((Object[]) o)[0];
        }

        /** The failure the party ended with (fails the test if it ended normally). */
        public Throwable failure() throws InterruptedException {
            thread.join();
            Object o = outcome.get();
            if (!(o instanceof Throwable)) {
                throw new AssertionError(thread.getName() + " ended normally, expected a failure");
            }
            return (Throwable) o;
        }
    }
}
