package dev.weft.weaver;

/** How the weaver names classes and methods of class files in its errors: as {@link Rule} does. */
final class Names {
    private Names() {
    }

    /** {@code dev/weft/csp/ChannelInput} → {@code ChannelInput}; {@code a/Outer$Inner} → {@code Outer.Inner}. */
    static String simpleClass(String internalName) {
        return Rule.simpleClass(internalName);
    }

    /** {@code ChannelInput.read()}. */
    static String method(String owner, String name) {
        return Rule.method(simpleClass(owner), name);
    }
}
