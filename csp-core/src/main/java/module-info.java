/**
 * Weft's core: the API ({@code dev.weft.csp}), the weaver's ABI ({@code dev.weft.csp.abi}, which woven code in
 * any module calls) and the schedulers' management interface ({@code dev.weft.csp.management}) for everyone; the SPI
 * and the runtime only for the libraries built on Weft; the API's implementation ({@code dev.weft.csp.internal})
 * for no one (see {@code docs/design.md}, "Packages and modules").
 */
module dev.weft.csp {
    requires java.management; // the schedulers' MXBeans
    requires jdk.jfr; // the runtime's events

    exports dev.weft.csp;
    exports dev.weft.csp.abi;
    exports dev.weft.csp.management; // JMX calls the MXBean's interface from a class of its own, in no module
    exports dev.weft.csp.spi to dev.weft.net, dev.weft.test;
    exports dev.weft.csp.runtime to dev.weft.net, dev.weft.test;
}
