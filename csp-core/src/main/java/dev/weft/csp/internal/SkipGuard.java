package dev.weft.csp.internal;

import dev.weft.csp.Fiber;
import java.util.List;

/** The guard of {@link dev.weft.csp.Guards#skip()}: always ready. */
public class SkipGuard implements AltGuard {
    @Override
    public ChannelImpl<?> channel() {
        return null;
    }

    @Override
    public boolean ready(Selection.Registration me, List<Fiber> wake) {
        return true;
    }

    @Override
    public void register(Selection.Registration me) {
    }

    @Override
    public void unregister(Selection.Registration me) {
    }

    @Override
    public String toString() {
        return "skip";
    }
}
