package dev.weft.maven;

import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.ResolutionScope;

/**
 * Goal {@code weave}, bound to {@code process-test-classes}: weaves {@code target/classes} and
 * {@code target/test-classes} (whichever exist) in place, so that both the jar and the tests get woven classes.
 * One execution naming it is all a project needs:
 * <pre>{@code
 * <plugin>
 *   <groupId>dev.weft</groupId>
 *   <artifactId>csp-maven-plugin</artifactId>
 *   <executions><execution><goals><goal>weave</goal></goals></execution></executions>
 * </plugin>
 * }</pre>
 * A build that stops before the tests ({@code mvn compile exec:java}, an IDE's Maven build) also needs goal
 * {@code weave-main} ({@link WeaveMainMojo}) in that execution, which weaves the main classes right after javac.
 */
@Mojo(name = "weave", defaultPhase = LifecyclePhase.PROCESS_TEST_CLASSES, threadSafe = true,
        requiresDependencyResolution = ResolutionScope.TEST)
public final class WeaveMojo extends AbstractWeaveMojo {
}
