package dev.weft.maven;

import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Goal {@code weave-main}, bound to {@code compile} (it runs right after javac, whose packaging binding comes
 * first in the phase): weaves {@code target/classes} (and {@code target/test-classes} if they exist) in place
 * as soon as they are compiled, so that {@code mvn compile exec:java} and an IDE's Maven build run woven
 * classes. Add it beside {@code weave} ({@link WeaveMojo}), which weaves the test classes later; classes
 * already woven are skipped.
 */
@Mojo(name = "weave-main", defaultPhase = LifecyclePhase.COMPILE, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public final class WeaveMainMojo extends AbstractWeaveMojo {
}
