package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Which stacks of a carrier that holds a slice for long the watchdog blames on the user. */
class CarrierWatchdogStacksTest {
    private static StackTraceElement frame(String cls, String method, boolean nativeMethod) {
        return new StackTraceElement(null, null, null, cls, method, nativeMethod ? null : cls + ".java",
                nativeMethod ? -2 : 10);
    }

    private static StackTraceElement[] stack(StackTraceElement... frames) {
        return frames;
    }

    private static final StackTraceElement USER = frame("com.acme.Pipeline", "collect", false);
    private static final StackTraceElement CARRIER = frame("dev.weft.csp.runtime.Worker", "run", false);

    @Test
    void userCodeThatWaitsOrComputesIsBlamed() {
        assertTrue(CarrierWatchdog.blocksForTheUser(stack(frame("java.lang.Thread", "sleep", true), USER, CARRIER),
                true));
        assertTrue(CarrierWatchdog.blocksForTheUser(stack(USER, CARRIER), true));
    }

    @Test
    void aNativeCallOffTheProcessorIsBlockingIo() {
        assertTrue(CarrierWatchdog.blocksForTheUser(stack(frame("sun.nio.ch.Net", "poll", true),
                frame("sun.nio.ch.NioSocketImpl", "read", false), USER, CARRIER), false));
    }

    @Test
    void theJdksMemoryNativesOffTheProcessorAreADescheduledCarrier() {
        // a library zeroing a fresh direct buffer, seen while the loaded machine runs something else
        assertFalse(CarrierWatchdog.blocksForTheUser(stack(frame("jdk.internal.misc.Unsafe", "setMemory0", true),
                frame("io.netty.buffer.UnpooledDirectByteBuf", "allocateDirectBuffer", false), USER, CARRIER), false));
        assertFalse(CarrierWatchdog.blocksForTheUser(stack(frame("java.lang.System", "arraycopy", true), USER,
                CARRIER), false));
    }

    @Test
    void aLibrarysOwnNativeCodeOffTheProcessorMayBlock() {
        assertTrue(CarrierWatchdog.blocksForTheUser(stack(frame("com.acme.jni.Device", "read0", true), USER,
                CARRIER), false));
    }

    @Test
    void javaCodeOffTheProcessorIsADescheduledCarrier() {
        assertFalse(CarrierWatchdog.blocksForTheUser(stack(frame("java.util.HashMap", "put", false), USER, CARRIER),
                false));
    }

    @Test
    void weftsOwnLockAndWorkAreNotTheUsers() {
        assertFalse(CarrierWatchdog.blocksForTheUser(stack(frame("jdk.internal.misc.Unsafe", "park", true),
                frame("java.util.concurrent.locks.LockSupport", "park", false),
                frame(ParkingLot.class.getName(), "lockParking", false), USER, CARRIER), true));
        assertFalse(CarrierWatchdog.blocksForTheUser(stack(frame("dev.weft.csp.Barrier", "wakeAll", false), USER,
                CARRIER), true));
    }

    @Test
    void loadingAClassIsNotTheUsers() {
        assertFalse(CarrierWatchdog.blocksForTheUser(stack(frame("java.util.zip.Inflater", "inflateBytesBytes", true),
                frame("jdk.internal.loader.BuiltinClassLoader", "loadClass", false),
                frame("java.lang.ClassLoader", "loadClass", false), USER, CARRIER), true));
    }

    @Test
    void aTestClassInWeftsPackageIsTheUsers() {
        assertTrue(CarrierWatchdog.blocksForTheUser(stack(frame("java.lang.Thread", "sleep", true),
                frame(CarrierWatchdogStacksTest.class.getName(), "sleeps", false), CARRIER), true));
    }
}
