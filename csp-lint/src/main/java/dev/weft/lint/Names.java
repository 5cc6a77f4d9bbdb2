package dev.weft.lint;

import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/** How classes and methods are named in the lint's messages: exactly as the weaver names them. */
final class Names {
    private Names() {
    }

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
