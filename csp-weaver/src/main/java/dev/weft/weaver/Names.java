package dev.weft.weaver;

/** How classes and methods are named in weave errors: as a Java programmer writes them. */
final class Names {
    private Names() {
    }

    /** How to fix a pausable method that overrides a plain one (the lint says the same). */
    static final String OVERRIDE_PLAIN_FIX = ": a call through the plain method cannot pause, so implement an"
            + " interface whose method is @Pausable instead (CSProcess, or one of your own), or drop @Pausable";
    /** How to fix a plain method that overrides a pausable one (the lint says the same). */
    static final String OVERRIDE_PAUSABLE_FIX = ": mark it @Pausable too";
    /** Why a pause under a monitor is refused, and how to fix it (the lint says the same). */
    static final String MONITOR_FIX = ": a fiber must not pause while holding a monitor (its carrier would hold"
            + " it for other fibers); move the call out of the synchronized block, or share the state over a"
            + " channel instead";

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
