package dev.weft.weaver;

import java.util.Set;

/** The names woven code links against in csp-core ({@code dev.weft.csp.abi}, and the fiber's type). */
final class Abi {
    private Abi() {
    }

    static final String FIBER = "dev/weft/csp/Fiber";
    static final String FIBER_DESC = "L" + FIBER + ";";
    /** Where the woven forms of {@link #FIBER}'s public primitives are (the ABI keeps them off the API). */
    static final String HAND_WOVEN = "dev/weft/csp/abi/HandWoven";
    static final Set<String> HAND_WOVEN_PRIMITIVES = Set.of("park", "parkOn", "yield", "yieldIfDue",
            "yieldIfOthersWait");
    static final String CONT = "dev/weft/csp/abi/Continuation";
    static final String CONT_DESC = "L" + CONT + ";";
    static final String SITE = "dev/weft/csp/abi/PauseSite";
    static final String SITE_DESC = "L" + SITE + ";";

    /** The descriptor of a method's woven form: the fiber is its last parameter. */
    static String wovenDesc(String desc) {
        int close = desc.indexOf(')');
        return desc.substring(0, close) + FIBER_DESC + desc.substring(close);
    }
}
