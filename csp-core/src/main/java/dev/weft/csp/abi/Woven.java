package dev.weft.csp.abi;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The marker the weaver puts on every class it wove, with the version of the contract between woven code
 * and this runtime. Not for users: it exists so that compilers reading woven classes know the annotation.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target(ElementType.TYPE)
public @interface Woven {
    /** The weaver's ABI version. */
    int abi();
}
