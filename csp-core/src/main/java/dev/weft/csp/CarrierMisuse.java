package dev.weft.csp;

import java.util.List;
import java.util.stream.Collectors;

/** Builds the message for a plain method that calls a pausable one on a carrier thread. */
final class CarrierMisuse {
    private CarrierMisuse() {
    }

    /** {@code pausable}: the callee's name if the caller knows it, else null (the callee is on the stack). */
    static String message(String pausable) {
        // Frames: message, Fiber.forThread, [Fiber.current/park], the pausable method, its plain caller.
        List<StackWalker.StackFrame> frames = StackWalker.getInstance().walk(s -> s
                .filter(f -> !f.getClassName().equals(CarrierMisuse.class.getName())
                        && !(f.getClassName().equals(Fiber.class.getName())
                             && (f.getMethodName().equals("forThread") || f.getMethodName().equals("current"))))
                .limit(2).collect(Collectors.toList()));
        if (pausable != null) {
            frames.add(0, null);
        }
        String callee = pausable != null ? pausable : frames.isEmpty() ? "a pausable method" : name(frames.get(0));
        String caller = frames.size() < 2 ? "a method that is not @Pausable" : name(frames.get(1));
        return caller + " calls pausable " + callee + " on a Weft carrier thread, where blocking would stall"
                + " every fiber of that carrier: mark " + caller + " @Pausable (and weave it), or run the call"
                + " from a plain thread";
    }

    private static String name(StackWalker.StackFrame f) {
        String cls = f.getClassName();
        String simple = cls.substring(cls.lastIndexOf('.') + 1);
        return simple + "." + f.getMethodName() + "()";
    }
}
