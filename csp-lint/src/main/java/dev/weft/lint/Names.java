package dev.weft.lint;

import dev.weft.weaver.Rule;
import javax.lang.model.element.Element;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;

/** How classes and methods of the source are named in the lint's messages: as {@link Rule} names them. */
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
        return Rule.method(type((TypeElement) m.getEnclosingElement()), m.getSimpleName().toString());
    }
}
