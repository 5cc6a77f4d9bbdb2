package dev.weft.weaver;

import java.util.List;
import java.util.stream.Collectors;

/** Thrown when weaving finds errors; carries all of them, one per line in the message. */
public final class WeaveException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient List<WeaveError> errors;

    /** An exception for the given errors (at least one). */
    public WeaveException(List<WeaveError> errors) {
        super(errors.stream().map(WeaveError::toString).collect(Collectors.joining("\n")));
        this.errors = List.copyOf(errors);
    }

    /** An exception for one error. */
    public WeaveException(WeaveError error) {
        this(List.of(error));
    }

    /** Every error found, in the order of the input. */
    public List<WeaveError> errors() {
        return errors;
    }
}
