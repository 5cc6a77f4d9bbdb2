package dev.weft.csp.runtime;

import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that run {@code Weft.blocking} calls: a cached pool of daemon threads ({@code weft-blocking-N})
 * shared by every scheduler, created on first use; a thread idle for two seconds ends (an interrupt does not end
 * an idle pool thread, so this bounds how long one outlives the application's last call).
 */
public final class BlockingCalls {
    private BlockingCalls() {
    }

    private static final class Holder {
        static final Executor POOL = create();

        private static Executor create() {
            AtomicInteger ids = new AtomicInteger();
            ThreadFactory factory = r -> {
                Thread t = new Thread(r, "weft-blocking-" + ids.incrementAndGet());
                t.setDaemon(true);
                return t;
            };
            return new ThreadPoolExecutor(0, Integer.MAX_VALUE, 2, TimeUnit.SECONDS, new SynchronousQueue<>(),
                    factory);
        }
    }

    /** Runs {@code task} on a blocking-call thread. */
    public static void execute(Runnable task) {
        Holder.POOL.execute(task);
    }
}
