package dev.weft.lincheck;

import static dev.weft.lincheck.Shape.Kind.ANY2ANY;
import static dev.weft.lincheck.Shape.Kind.ANY2ONE;
import static dev.weft.lincheck.Shape.Kind.ONE2ANY;
import static dev.weft.lincheck.Shape.Kind.ONE2ONE;

import java.util.List;

/**
 * The channels checked, one class each (Lincheck makes the object under test with its no-argument constructor):
 * every kind, synchronous and with room for one and two values.
 */
public final class Channels {
    static final List<Class<? extends ChannelOperations>> ALL = List.of(
            One2OneSync.class, One2One1.class, One2One2.class,
            Any2AnySync.class, Any2Any1.class, Any2Any2.class,
            One2AnySync.class, One2Any1.class, One2Any2.class,
            Any2OneSync.class, Any2One1.class, Any2One2.class);

    private Channels() {
    }

    @Shape(kind = ONE2ONE, capacity = 0)
    public static final class One2OneSync extends ChannelOperations {
    }

    @Shape(kind = ONE2ONE, capacity = 1)
    public static final class One2One1 extends ChannelOperations {
    }

    @Shape(kind = ONE2ONE, capacity = 2)
    public static final class One2One2 extends ChannelOperations {
    }

    @Shape(kind = ANY2ANY, capacity = 0)
    public static final class Any2AnySync extends ChannelOperations {
    }

    @Shape(kind = ANY2ANY, capacity = 1)
    public static final class Any2Any1 extends ChannelOperations {
    }

    @Shape(kind = ANY2ANY, capacity = 2)
    public static final class Any2Any2 extends ChannelOperations {
    }

    @Shape(kind = ONE2ANY, capacity = 0)
    public static final class One2AnySync extends ChannelOperations {
    }

    @Shape(kind = ONE2ANY, capacity = 1)
    public static final class One2Any1 extends ChannelOperations {
    }

    @Shape(kind = ONE2ANY, capacity = 2)
    public static final class One2Any2 extends ChannelOperations {
    }

    @Shape(kind = ANY2ONE, capacity = 0)
    public static final class Any2OneSync extends ChannelOperations {
    }

    @Shape(kind = ANY2ONE, capacity = 1)
    public static final class Any2One1 extends ChannelOperations {
    }

    @Shape(kind = ANY2ONE, capacity = 2)
    public static final class Any2One2 extends ChannelOperations {
    }
}
