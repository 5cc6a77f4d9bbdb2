/** Weft's JUnit 5 kit: {@code @WeftTest}, virtual time and schedule exploration. */
module dev.weft.test {
    requires transitive dev.weft.csp;
    requires transitive org.junit.jupiter.api;
    requires java.management;

    exports dev.weft.csp.test;

    provides org.junit.jupiter.api.extension.Extension with dev.weft.csp.test.FiberDumpOnTimeout;
}
