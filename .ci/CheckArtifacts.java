import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Element;

/**
 * Checks a repository that {@code mvn deploy} wrote (see .ci/check-artifacts) as Maven Central would: every
 * library artifact has a POM with name, description, url, licenses, developers and scm (its own or inherited
 * from a parent in the same repository), a jar with an Automatic-Module-Name (its module-info's name, if it has
 * one), and sources and javadoc jars; the modules that are not libraries are not there. Prints every problem and
 * exits 1 if there is one.
 *
 * <p>Run: {@code java .ci/CheckArtifacts.java target/staging-repo}
 */
public class CheckArtifacts {
    static final String GROUP = "dev/weft";
    static final List<String> JAR_LIBRARIES = List.of("csp-core", "csp-weaver", "csp-net", "csp-test", "csp-lint",
            "csp-maven-plugin");
    static final List<String> POM_ONLY = List.of("weft-bom", "weft-parent");
    static final List<String> NOT_PUBLISHED = List.of("samples", "bench", "csp-jcstress");
    static final List<String> METADATA = List.of("name", "description", "url", "licenses", "developers", "scm");

    final Path repo;
    final List<String> problems = new ArrayList<>();

    CheckArtifacts(Path repo) { this.repo = repo; }

    public static void main(String[] args) throws Exception {
        CheckArtifacts check = new CheckArtifacts(Path.of(args[0]));
        check.run();
        check.problems.forEach(p -> System.out.println("MISSING: " + p));
        if (!check.problems.isEmpty()) System.exit(1);
        System.out.println("Artifacts complete: " + JAR_LIBRARIES + " with POM metadata, module names, sources and javadoc; "
                + POM_ONLY + " with POM metadata; " + NOT_PUBLISHED + " not published.");
    }

    void run() throws Exception {
        for (String artifact : JAR_LIBRARIES) {
            Path pom = file(artifact, ".pom");
            if (pom == null) continue;
            checkMetadata(artifact, pom);
            Path jar = file(artifact, ".jar");
            if (jar != null) checkModuleName(artifact, jar);
            file(artifact, "-sources.jar");
            file(artifact, "-javadoc.jar");
        }
        for (String artifact : POM_ONLY) {
            Path pom = file(artifact, ".pom");
            if (pom != null) checkMetadata(artifact, pom);
        }
        for (String artifact : NOT_PUBLISHED)
            if (Files.exists(repo.resolve(GROUP).resolve(artifact)))
                problems.add(artifact + " is published, but it is not a library");
    }

    /** The newest file of {@code artifact} whose name ends in {@code suffix} (snapshots are timestamped). */
    Path file(String artifact, String suffix) throws IOException {
        Path dir = repo.resolve(GROUP).resolve(artifact);
        if (Files.isDirectory(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                Path found = files.filter(f -> matches(f.getFileName().toString(), artifact, suffix)).sorted()
                        .reduce((a, b) -> b).orElse(null);
                if (found != null) return found;
            }
        }
        problems.add(artifact + ": no *" + suffix);
        return null;
    }

    static boolean matches(String name, String artifact, String suffix) {
        if (!name.startsWith(artifact + "-") || !name.endsWith(suffix)) return false;
        // "x.jar" must not match "x-sources.jar": the part before the suffix is the version, which has no letters
        // after its last digit.
        String middle = name.substring(artifact.length() + 1, name.length() - suffix.length());
        return !middle.endsWith("-sources") && !middle.endsWith("-javadoc");
    }

    void checkMetadata(String artifact, Path pom) throws Exception {
        for (String element : METADATA)
            if (inherited(pom, element) == null) problems.add(artifact + ": POM has no <" + element + ">");
    }

    /** {@code element} of the POM, or of its parent POMs in the same repository, as Maven inherits it. */
    Element inherited(Path pom, String element) throws Exception {
        Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile())
                .getDocumentElement();
        Element own = child(project, element);
        if (own != null && !own.getTextContent().isBlank()) return own;
        Element parent = child(project, "parent");
        if (parent == null) return null;
        Path parentPom = file(child(parent, "artifactId").getTextContent().trim(), ".pom");
        return parentPom == null ? null : inherited(parentPom, element);
    }

    static Element child(Element parent, String name) {
        for (var n = parent.getFirstChild(); n != null; n = n.getNextSibling())
            if (n instanceof Element e && e.getTagName().equals(name)) return e;
        return null;
    }

    void checkModuleName(String artifact, Path jar) throws IOException {
        try (JarFile file = new JarFile(jar.toFile())) {
            String name = file.getManifest() == null ? null
                    : file.getManifest().getMainAttributes().getValue("Automatic-Module-Name");
            if (name == null || !name.startsWith("dev.weft."))
                problems.add(artifact + ": jar manifest has no Automatic-Module-Name dev.weft.* (" + name + ")");
            var descriptor = file.getJarEntry("module-info.class");
            if (descriptor != null) {
                try (var in = file.getInputStream(descriptor)) {
                    String declared = java.lang.module.ModuleDescriptor.read(in).name();
                    if (!declared.equals(name))
                        problems.add(artifact + ": module-info names " + declared + ", the manifest " + name);
                }
            }
        }
    }
}
