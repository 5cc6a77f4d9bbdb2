/** Weft's JUnit 5 kit: {@code @WeftTest}, virtual time and schedule exploration. */
module dev.weft.test {
    requires transitive dev.weft.csp;
    requires transitive org.junit.jupiter.api;

    exports dev.weft.csp.test;
}
