package dev.weft.maven;

import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Goal {@code weave-tests}, bound to {@code test-compile} (right after javac's test compilation): weaves
 * {@code target/test-classes} in place once javac has written them (main classes, woven by {@link WeaveMojo weave}, are skipped).
 */
@Mojo(name = "weave-tests", defaultPhase = LifecyclePhase.TEST_COMPILE, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public final class WeaveTestsMojo extends AbstractWeaveMojo {
}
