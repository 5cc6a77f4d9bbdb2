package dev.weft.csp;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method that may block (pause) its fiber: a channel read, a barrier sync, a sleep, or a call
 * to another pausable method.
 *
 * <p>The Weft weaver turns every pausable method into a resumable form that takes the running
 * {@link Fiber}; the original signature stays callable from plain Java threads, where a pause blocks the
 * calling thread. Overrides must agree: a pausable method may only override or implement a pausable one,
 * and the reverse.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Pausable {
}
