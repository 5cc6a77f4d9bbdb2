package dev.weft.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The phases the goals bind to, as Maven reads them: from the plugin descriptor that maven-plugin-plugin
 * generated from the goals' annotations. One execution naming {@code weave} weaves main and test classes by
 * the time tests run; {@code weave-main} weaves main classes by {@code mvn compile}, right after javac (a phase
 * runs the packaging's own goals first).
 */
class GoalPhasesTest {
    @Test
    void weaveBindsAfterTheTestClassesAndWeaveMainRightAfterJavac() throws Exception {
        Map<String, String> phases = new HashMap<>();
        try (InputStream in = WeaveMojo.class.getResourceAsStream("/META-INF/maven/plugin.xml")) {
            Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(in);
            NodeList mojos = d.getElementsByTagName("mojo");
            for (int i = 0; i < mojos.getLength(); i++) {
                Element m = (Element) mojos.item(i);
                phases.put(text(m, "goal"), text(m, "phase"));
            }
        }
        assertEquals(Map.of("weave", "process-test-classes", "weave-main", "compile"), phases);
    }

    private static String text(Element parent, String child) {
        NodeList l = parent.getElementsByTagName(child);
        return l.getLength() == 0 ? null : l.item(0).getTextContent().trim();
    }
}
