package dev.weft.net.launch;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * The class-data archive that this machine's worker JVMs start from (dynamic AppCDS, JDK 13+): the classes a worker
 * loads beyond the JDK's own archive (Weft, Netty, Kryo, the program), parsed and verified once and then mapped by
 * every later worker, which cuts a worker's start by more than half (docs/startup.md). Nothing to do for the user:
 * the first launch that finds no archive for this JDK and class path has one of its workers record it
 * ({@code -XX:ArchiveClassesAtExit}) and publishes it once that JVM has exited; every later launch's workers use it
 * ({@code -XX:SharedArchiveFile}).
 *
 * <p>An archive is valid for one JDK and one class path, so its name is a hash of {@code java.home}, the VM's
 * version, and every class path entry's path, size and modification time: a rebuilt jar makes a new one. They are
 * kept in {@code weft.launch.archiveDir} (default {@code $XDG_CACHE_HOME/weft/class-data}, or
 * {@code ~/.cache/weft/class-data}), the newest {@value #KEPT} of them. {@code weft.launch.archive=false} turns this off;
 * a worker given its own archive or AOT cache option (by {@link Launcher.Builder#jvmArgs} or the launcher's own
 * {@link AotCacheFlags}) gets none; a class path with a directory gets none (the JDK archives classes from jars only).
 *
 * <p>Invariants that keep a launch from ever failing or warning because of an archive: the JVM writes it under a
 * temporary name that one recorder at a time holds (a lock file made with {@code CREATE_NEW}), and it is renamed to
 * its final name, which carries its size, only after that JVM exited normally; an archive whose size is not its
 * name's (truncated: JDK 17 would die of a SIGBUS mapping it) is deleted unused; the JVM checks the rest
 * ({@code -XX:+VerifySharedSpaces}: a checksum of its contents) and silently starts without an archive it cannot use,
 * since its CDS logging is off.
 */
final class ClassDataArchive {
    /** How many archives the directory keeps: the newest. */
    static final int KEPT = 10;
    /** A lock older than this was left by a launcher that died while its worker recorded. */
    private static final Duration STALE_LOCK = Duration.ofMinutes(10);
    /** CDS's logging off, so that an archive the JVM cannot use (or cannot write) is never a warning on the console. */
    private static final String QUIET = "-Xlog:cds*=off";
    /** No archive: options already chosen by the user, a class path the JDK cannot archive, or turned off. */
    private static final ClassDataArchive NONE = new ClassDataArchive(null, null);

    private final Path dir;
    /** The archives' name without its size: {@code weft-<hash of JDK and class path>}. */
    private final String key;
    private boolean recordingHandedOut;
    private boolean locked;
    private Process recorder;

    private ClassDataArchive(Path dir, String key) {
        this.dir = dir;
        this.key = key;
    }

    /** The archive of this JVM's class path, for workers that get {@code workerJvmArgs}; set up by system properties. */
    static ClassDataArchive forWorkers(List<String> workerJvmArgs) {
        if ("false".equals(System.getProperty("weft.launch.archive"))) {
            return NONE;
        }
        return of(directory(), System.getProperty("java.class.path"), workerJvmArgs);
    }

    /** The archive of {@code classPath} kept in {@code dir}, or none if the JDK cannot make one that the workers use. */
    static ClassDataArchive of(Path dir, String classPath, List<String> workerJvmArgs) {
        String vm = System.getProperty("java.vm.name", "");
        if (dir == null || workerJvmArgs.stream().anyMatch(ClassDataArchive::choosesClassData)
                || !vm.contains("OpenJDK") && !vm.contains("HotSpot")) { // the options are HotSpot's
            return NONE;
        }
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            update(sha, System.getProperty("java.home"), vm, System.getProperty("java.vm.version"));
            for (String entry : classPath.split(File.pathSeparator)) {
                Path jar = Path.of(entry).toAbsolutePath();
                if (!Files.isRegularFile(jar)) {
                    return NONE; // a directory (or the current one, ""): its classes cannot be archived
                }
                update(sha, jar.toString(), Long.toString(Files.size(jar)),
                        Long.toString(Files.getLastModifiedTime(jar).toMillis()));
            }
            return new ClassDataArchive(dir, "weft-" + HexFormat.of().formatHex(sha.digest(), 0, 12));
        } catch (IOException | NoSuchAlgorithmException e) {
            return NONE;
        }
    }

    private static void update(MessageDigest sha, String... parts) {
        for (String p : parts) {
            sha.update(p.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
        }
    }

    /** An option by which the user chose the worker's class data: then the launcher adds none of its own. */
    private static boolean choosesClassData(String jvmArg) {
        return jvmArg.startsWith("-XX:SharedArchiveFile=") || jvmArg.startsWith("-XX:ArchiveClassesAtExit=")
                || jvmArg.startsWith("-XX:AOT") || jvmArg.startsWith("-Xshare:") || jvmArg.endsWith("AutoCreateSharedArchive");
    }

    private static Path directory() {
        String dir = System.getProperty("weft.launch.archiveDir");
        if (dir != null) {
            return Path.of(dir);
        }
        String cache = System.getenv("XDG_CACHE_HOME");
        if (cache == null || cache.isEmpty()) {
            String home = System.getProperty("user.home");
            if (home == null || home.isEmpty() || home.equals("?")) {
                return null;
            }
            cache = home + File.separator + ".cache";
        }
        return Path.of(cache, "weft", "class-data");
    }

    /**
     * The options for the next worker JVM this machine starts: start from the archive if there is one; else, for the
     * first worker of the launch, record it if no other launcher is recording it; else none.
     */
    List<String> nextWorkerOptions() {
        if (dir == null) {
            return List.of();
        }
        Path archive = published();
        if (archive != null) {
            return List.of("-XX:SharedArchiveFile=" + archive, "-XX:+VerifySharedSpaces", QUIET);
        }
        if (recordingHandedOut || !lock()) {
            return List.of();
        }
        recordingHandedOut = true;
        return List.of("-XX:ArchiveClassesAtExit=" + temporary(), QUIET);
    }

    /** Tells which JVM got the options of the last {@link #nextWorkerOptions} call. */
    void started(Process worker) {
        if (recordingHandedOut && recorder == null) {
            recorder = worker;
        }
    }

    /** Whether {@code worker} records the archive (it writes it as it exits: let it finish). */
    boolean records(Process worker) {
        return worker == recorder;
    }

    /**
     * Publishes the archive if its recorder has exited normally (the JVM wrote it as it exited), and lets go of the
     * lock; call once the launch's workers have ended. Never fails: at worst, a later launch records again.
     */
    void publish() {
        if (!locked) {
            return;
        }
        try {
            Path written = temporary();
            if (recorder != null && !recorder.isAlive() && recorder.exitValue() == 0 && Files.isRegularFile(written)
                    && Files.size(written) > 0) {
                Files.move(written, dir.resolve(key + "-" + Files.size(written) + ".jsa"), StandardCopyOption.ATOMIC_MOVE);
                keepTheNewest();
            }
            Files.deleteIfExists(written);
        } catch (IOException | UnsupportedOperationException e) {
            // a file system that cannot rename atomically, or a directory that went away: no archive, no harm
        } finally {
            try {
                Files.deleteIfExists(dir.resolve(key + ".lock"));
            } catch (IOException e) {
                // it goes stale, and the next recorder after STALE_LOCK takes it over
            }
            locked = false;
        }
    }

    /** The published archive of this key, or null; one whose size is not its name's is deleted. */
    private Path published() {
        try (DirectoryStream<Path> found = Files.newDirectoryStream(dir, key + "-*.jsa")) {
            for (Path p : found) {
                String name = p.getFileName().toString();
                String size = name.substring(key.length() + 1, name.length() - ".jsa".length());
                if (size.equals(Long.toString(Files.size(p)))) {
                    return p;
                }
                Files.deleteIfExists(p);
            }
        } catch (IOException | RuntimeException e) {
            // no directory yet, or an archive that went as we looked: none
        }
        return null;
    }

    /** Takes the lock of this key's recording: false if another launcher holds it. */
    private boolean lock() {
        Path lock = dir.resolve(key + ".lock");
        try {
            Files.createDirectories(dir);
            if (Files.exists(lock) && Files.getLastModifiedTime(lock).toInstant().isBefore(Instant.now().minus(STALE_LOCK))) {
                Files.deleteIfExists(lock);
            }
            Files.createFile(lock);
            locked = true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException | RuntimeException e) {
            return false; // a directory we cannot write: no archive
        }
        return true;
    }

    private Path temporary() {
        return dir.resolve(key + ".jsa.tmp");
    }

    /** Deletes all but the newest {@value #KEPT} archives of the directory. */
    private void keepTheNewest() throws IOException {
        List<Path> archives = new ArrayList<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(dir, "weft-*.jsa")) {
            all.forEach(archives::add);
        }
        archives.sort(Comparator.comparing(ClassDataArchive::modified).reversed());
        for (Path old : archives.subList(Math.min(KEPT, archives.size()), archives.size())) {
            Files.deleteIfExists(old); // a JVM that maps it keeps it until it exits
        }
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }
}
