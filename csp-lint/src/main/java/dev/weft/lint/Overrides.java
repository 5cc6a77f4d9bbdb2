package dev.weft.lint;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.ElementKind;
import javax.lang.model.element.ExecutableElement;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/** Which methods a method overrides. */
final class Overrides {
    private Overrides() {
    }

    /** Every method of a supertype of {@code owner} that {@code m} overrides. */
    static List<ExecutableElement> of(ExecutableElement m, TypeElement owner, ProcessingEnvironment env) {
        List<ExecutableElement> found = new ArrayList<>();
        for (TypeElement s : supertypes(owner, env)) {
            for (Element e : s.getEnclosedElements()) {
                if (e.getKind() == ElementKind.METHOD && e.getSimpleName().equals(m.getSimpleName())
                        && env.getElementUtils().overrides(m, (ExecutableElement) e, owner)) {
                    found.add((ExecutableElement) e);
                }
            }
        }
        return found;
    }

    /** Every proper supertype of {@code t}, classes and interfaces, each once. */
    private static List<TypeElement> supertypes(TypeElement t, ProcessingEnvironment env) {
        List<TypeElement> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Deque<TypeMirror> todo = new ArrayDeque<>(env.getTypeUtils().directSupertypes(t.asType()));
        while (!todo.isEmpty()) {
            TypeMirror m = todo.pop();
            if (m.getKind() != TypeKind.DECLARED) {
                continue;
            }
            TypeElement s = (TypeElement) ((DeclaredType) m).asElement();
            if (seen.add(s.getQualifiedName().toString())) {
                out.add(s);
                todo.addAll(env.getTypeUtils().directSupertypes(m));
            }
        }
        return out;
    }
}
