package dev.weft.bench.peers;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Starts a Java thread for a process: a platform thread, or a virtual thread where the JDK has them. The
 * project compiles for Java 17, which has no {@code Thread.startVirtualThread}; it is looked up once through a
 * method handle, so the same jar runs on 17 (virtual threads reported as unavailable) and on 21+.
 */
@FunctionalInterface
public interface ThreadStarter {
    /** Starts a thread running {@code body} and returns it. */
    Thread start(Runnable body);

    /** Platform threads, one per process. */
    ThreadStarter PLATFORM = body -> {
        Thread t = new Thread(body);
        t.setDaemon(true);
        t.start();
        return t;
    };

    /** Virtual threads, one per process; fails if the running JDK has none (before 21). */
    ThreadStarter VIRTUAL = body -> VirtualThreads.start(body);

    /** Access to {@code Thread.startVirtualThread(Runnable)} without compiling against JDK 21. */
    final class VirtualThreads {
        private static final MethodHandle START = find();

        private VirtualThreads() {
        }

        private static MethodHandle find() {
            try {
                return MethodHandles.publicLookup().findStatic(Thread.class, "startVirtualThread",
                        MethodType.methodType(Thread.class, Runnable.class));
            } catch (ReflectiveOperationException e) {
                return null;
            }
        }

        /** Whether the running JDK has virtual threads. */
        public static boolean available() {
            return START != null;
        }

        /** Starts a virtual thread running {@code body}. */
        public static Thread start(Runnable body) {
            if (START == null) {
                throw new UnsupportedOperationException("virtual threads need JDK 21 or newer, this is "
                        + System.getProperty("java.version"));
            }
            try {
                return (Thread) START.invokeExact(body);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }
    }
}
