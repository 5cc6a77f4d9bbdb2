package dev.weft.weaver;

/**
 * The rules about where code may pause, each with the message that refuses it and says how to fix it.
 *
 * <p>One table for the weaver, which reads class files, and for csp-lint, which checks the same rules in javac
 * as the code is typed: both name classes and methods as a Java programmer writes them ({@code
 * ChannelInput.read()}, {@code Outer.Inner}), so that an error reads the same in the IDE and in the build.
 */
public enum Rule {
    /** A pausable call inside a {@code synchronized} block of a pausable method. */
    PAUSE_UNDER_MONITOR("{0} calls pausable {1} inside a synchronized block" + Fix.MONITOR),
    /** A pausable call in a {@code synchronized} pausable method. */
    PAUSE_IN_SYNCHRONIZED_METHOD("{0} is synchronized and calls pausable {1}" + Fix.MONITOR),
    /** A pausable call in a constructor (or an instance initializer, which javac puts in the constructors). */
    PAUSE_IN_CONSTRUCTOR("constructor of {0} calls pausable {1}: a constructor cannot pause; do blocking work in"
            + " a method"),
    /** A pausable call in a static initializer. */
    PAUSE_IN_STATIC_INITIALIZER("static initializer of {0} calls pausable {1}: a static initializer cannot"
            + " pause; do blocking work in a method"),
    /** A {@code @Pausable} method that overrides or implements a plain one. */
    PAUSABLE_OVERRIDES_PLAIN("{0} is @Pausable but overrides {1}, which is not @Pausable: a call through the plain"
            + " method cannot pause, so implement an interface whose method is @Pausable instead (CSProcess, or one"
            + " of your own), or drop @Pausable"),
    /** A plain method that overrides or implements a pausable one. */
    PLAIN_OVERRIDES_PAUSABLE("{0} is not @Pausable but overrides pausable {1}: mark it @Pausable too");

    /** Text shared by several rules. */
    private static final class Fix {
        static final String MONITOR = ": a fiber must not pause while holding a monitor (its carrier would hold it"
                + " for other fibers); move the call out of the synchronized block, or share the state over a"
                + " channel instead";
    }

    private final String template;

    Rule(String template) {
        this.template = template;
    }

    /**
     * The message refusing code that breaks this rule.
     *
     * @param where the method, or for the initializer rules the class, that breaks it ({@code Foo.send()}, {@code
     *              Foo})
     * @param what  the pausable method it calls or the method it overrides ({@code ChannelOutput.write()})
     */
    public String message(String where, String what) {
        return template.replace("{0}", where).replace("{1}", what);
    }

    /** {@code dev/weft/csp/ChannelInput} → {@code ChannelInput}; {@code a/Outer$Inner} → {@code Outer.Inner}. */
    public static String simpleClass(String internalName) {
        String s = internalName.substring(internalName.lastIndexOf('/') + 1);
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean nested = c == '$' && i + 1 < s.length() && !Character.isDigit(s.charAt(i + 1));
            b.append(nested ? '.' : c);
        }
        return b.toString();
    }

    /** A method as the messages name it: {@code method("ChannelInput", "read")} is {@code ChannelInput.read()}. */
    public static String method(String simpleClass, String name) {
        return simpleClass + "." + name + "()";
    }
}
