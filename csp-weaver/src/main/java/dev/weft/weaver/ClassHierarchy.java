package dev.weft.weaver;

/** TEMPORARY placeholder so the delivery branch compiles; the real engine replaces it on merge. */
final class ClassHierarchy {
    ClassHierarchy(ClassFinder finder) {
    }
}
