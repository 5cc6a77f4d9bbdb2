package dev.weft.weaver.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.weaver.WeaveError;
import org.junit.jupiter.api.Test;

class ErrorLocationTest {
    private static final WeaveError ERROR = new WeaveError("Foo.java", 42, "Foo.bar()", "mark it @Pausable");

    @Test
    void qualifiesTheSourceFileWithThePackageOfTheClassFile() {
        assertEquals("com/acme/Foo.java:42: mark it @Pausable",
                ErrorLocation.locate("com/acme/Foo$1.class", ERROR).toString());
    }

    @Test
    void leavesDefaultPackageAndQualifiedFilesAlone() {
        assertEquals("Foo.java:42: mark it @Pausable", ErrorLocation.locate("Foo.class", ERROR).toString());
        WeaveError qualified = new WeaveError("x/Foo.java", 1, "m", "msg");
        assertEquals("x/Foo.java:1: msg", ErrorLocation.locate("com/acme/Foo.class", qualified).toString());
    }

    @Test
    void keepsMethodAndLine() {
        WeaveError located = ErrorLocation.locate("com/acme/Foo.class", ERROR);
        assertEquals("Foo.bar()", located.method());
        assertEquals(42, located.line());
    }

    @Test
    void usesTheClassFileWhenNoSourceFileIsRecorded() {
        WeaveError noSource = new WeaveError("", 0, "Foo.bar()", "msg");
        assertEquals("com/acme/Foo.class:0: msg", ErrorLocation.locate("com/acme/Foo.class", noSource).toString());
        WeaveError unreadable = new WeaveError("?", 0, "?", "upgrade csp-weaver");
        assertEquals("com/acme/Foo.class:0: upgrade csp-weaver",
                ErrorLocation.locate("com/acme/Foo.class", unreadable).toString());
    }

    @Test
    void ignoresTheVersionDirectoryOfMultiReleaseJars() {
        assertEquals("com/acme/", ErrorLocation.packageDirectory("META-INF/versions/17/com/acme/Foo.class"));
    }
}
