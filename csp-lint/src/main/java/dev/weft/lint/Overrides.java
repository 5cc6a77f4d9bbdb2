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
import javax.lang.model.element.Modifier;
import javax.lang.model.element.TypeElement;
import javax.lang.model.type.DeclaredType;
import javax.lang.model.type.TypeKind;
import javax.lang.model.type.TypeMirror;

/** Which methods a method overrides, and which method a functional interface stands for. */
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

    /** The single abstract method of {@code type} if it is a functional interface, else null. */
    static ExecutableElement functionalMethod(TypeMirror type, ProcessingEnvironment env) {
        if (type == null || type.getKind() != TypeKind.DECLARED) {
            return null;
        }
        TypeElement t = (TypeElement) ((DeclaredType) type).asElement();
        if (t.getKind() != ElementKind.INTERFACE) {
            return null;
        }
        List<TypeElement> all = new ArrayList<>();
        all.add(t);
        all.addAll(supertypes(t, env));
        for (TypeElement s : all) {
            if (s.getKind() != ElementKind.INTERFACE) {
                continue;
            }
            for (Element e : s.getEnclosedElements()) {
                if (e.getKind() == ElementKind.METHOD && e.getModifiers().contains(Modifier.ABSTRACT)
                        && !isObjectMethod((ExecutableElement) e, env)) {
                    return (ExecutableElement) e;
                }
            }
        }
        return null;
    }

    private static boolean isObjectMethod(ExecutableElement m, ProcessingEnvironment env) {
        TypeElement object = env.getElementUtils().getTypeElement("java.lang.Object");
        for (Element e : object.getEnclosedElements()) {
            if (e.getKind() == ElementKind.METHOD && e.getSimpleName().equals(m.getSimpleName())
                    && ((ExecutableElement) e).getParameters().size() == m.getParameters().size()) {
                return true;
            }
        }
        return false;
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
