package dev.weft.weaver;

/** How classes and methods are named in weave errors: as a Java programmer writes them. */
final class Names {
    private Names() {
    }

    /** {@code dev/weft/csp/ChannelInput} → {@code ChannelInput}; {@code a/Outer$Inner} → {@code Outer.Inner}. */
    static String simpleClass(String internalName) {
        String s = internalName.substring(internalName.lastIndexOf('/') + 1);
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean nested = c == '$' && i + 1 < s.length() && !Character.isDigit(s.charAt(i + 1));
            b.append(nested ? '.' : c);
        }
        return b.toString();
    }

    /** {@code ChannelInput.read()}. */
    static String method(String owner, String name) {
        return simpleClass(owner) + "." + name + "()";
    }
}
