package dev.weft.lint;

import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/** How classes and methods are named in the lint's messages: exactly as the weaver names them. */
final class Names {
    private Names() {
    }

    // How to fix what is refused: the same words as the weaver's (dev.weft.weaver.Names).
    static final String OVERRIDE_PLAIN_FIX = ": a call through the plain method cannot pause, so implement an"
            + " interface whose method is @Pausable instead (CSProcess, or one of your own), or drop @Pausable";
    static final String OVERRIDE_PAUSABLE_FIX = ": mark it @Pausable too";
    static final String MONITOR_FIX = ": a fiber must not pause while holding a monitor (its carrier would hold"
            + " it for other fibers); move the call out of the synchronized block, or share the state over a"
            + " channel instead";

    /** {@code ChannelInput}; a nested type is {@code Outer.Inner}. */
    static String type(TypeElement t) {
        Element outer = t.getEnclosingElement();
        String name = t.getSimpleName().toString();
        return outer instanceof TypeElement ? type((TypeElement) outer) + "." + name : name;
    }

    /** {@code ChannelInput.read()}. */
    static String method(ExecutableElement m) {
        return type((TypeElement) m.getEnclosingElement()) + "." + m.getSimpleName() + "()";
    }

    /** A functional interface's method as the weaver names it: {@code Consumer.accept}. */
    static String functional(ExecutableElement m) {
        return type((TypeElement) m.getEnclosingElement()) + "." + m.getSimpleName();
    }
}
