package dev.weft.maven;

import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Goal {@code weave}, bound to {@code compile} (it runs right after javac, whose packaging binding comes
 * first in the phase): weaves {@code target/classes} (and {@code target/test-classes} if it exists) in
 * place, so that {@code mvn compile exec:java} and an IDE's Maven build run woven classes. Goal
 * {@code weave-tests} weaves the test classes once they are compiled; add both with one execution:
 * <pre>{@code
 * <plugin>
 *   <groupId>dev.weft</groupId>
 *   <artifactId>csp-maven-plugin</artifactId>
 *   <executions><execution><goals><goal>weave</goal><goal>weave-tests</goal></goals></execution></executions>
 * </plugin>
 * }</pre>
 */
@Mojo(name = "weave", defaultPhase = LifecyclePhase.COMPILE, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public final class WeaveMojo extends AbstractWeaveMojo {
}
