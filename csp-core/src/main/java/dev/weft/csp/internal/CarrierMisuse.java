package dev.weft.csp.internal;

import dev.weft.csp.Fiber;
import dev.weft.csp.abi.HandWoven;
import java.util.List;
import java.util.stream.Collectors;

/** Builds the message for a plain method that calls a pausable one on a carrier thread. */
final class CarrierMisuse {
    private CarrierMisuse() {
    }

    /** {@code pausable}: the callee's name if the caller knows it, else null (the callee is on the stack). */
    static String message(String pausable) {
        // Frames: message, ThreadMode.forThread (reached from a woven bridge through HandWoven.forThread and
        // FiberPauses.Installed.forThread), [Fiber.current/park], the pausable method, its plain caller.
        List<StackWalker.StackFrame> frames = StackWalker.getInstance().walk(s -> s
                .filter(f -> !f.getClassName().equals(CarrierMisuse.class.getName()) && !isThreadModeEntry(f))
                .limit(2).collect(Collectors.toList()));
        if (pausable != null) {
            frames.add(0, null);
        }
        String callee = pausable != null ? pausable : frames.isEmpty() ? "a pausable method" : name(frames.get(0));
        StackWalker.StackFrame callerFrame = frames.size() < 2 ? null : frames.get(1);
        String stall = " on a Weft carrier thread, where blocking would stall every fiber of that carrier: ";
        if (callerFrame != null && callerFrame.getMethodName().startsWith("lambda$")) {
            String lambda = "a lambda in " + lambdaCreator(callerFrame);
            return lambda + " calls pausable " + callee + stall + "its interface's method is not @Pausable, so it"
                    + " cannot pause; give it an interface whose method is @Pausable (CSProcess, or one of your"
                    + " own), start it with Weft.spawn, or run it on a plain thread";
        }
        String caller = callerFrame == null ? "a method that is not @Pausable" : name(callerFrame);
        return caller + " calls pausable " + callee + stall + "mark " + caller + " @Pausable (and weave it), or run"
                + " the call from a plain thread";
    }

    /** Whether {@code f} is a frame of the runtime's way to the calling thread's fiber, not of the user's code. */
    private static boolean isThreadModeEntry(StackWalker.StackFrame f) {
        String cls = f.getClassName();
        String m = f.getMethodName();
        return (cls.equals(Fiber.class.getName()) && m.equals("current"))
                || (m.equals("forThread") && (cls.equals(ThreadMode.class.getName())
                                               || cls.equals(HandWoven.class.getName())
                                               || cls.equals(FiberPauses.Installed.class.getName())));
    }

    /** {@code Foo.bar()} for the body {@code lambda$bar$0} that javac makes of a lambda written in bar. */
    private static String lambdaCreator(StackWalker.StackFrame f) {
        String[] parts = f.getMethodName().split("\\$");
        String cls = f.getClassName();
        return cls.substring(cls.lastIndexOf('.') + 1) + "." + (parts.length > 1 ? parts[1] : f.getMethodName()) + "()";
    }

    private static String name(StackWalker.StackFrame f) {
        String cls = f.getClassName();
        String simple = cls.substring(cls.lastIndexOf('.') + 1);
        return simple + "." + f.getMethodName() + "()";
    }
}
