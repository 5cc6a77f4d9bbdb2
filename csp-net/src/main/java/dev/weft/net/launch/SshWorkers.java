package dev.weft.net.launch;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * Starts worker JVMs on other hosts with {@code ssh host java ... WorkerMain}, one ssh connection per worker. With a
 * shared class path (the same paths on every host, say over NFS) the worker gets this JVM's class path as it
 * is. Shipped (the default), the class path goes down the same connection as a tar stream: each entry becomes a
 * jar (a directory is packed into one), unpacked into a fresh directory under {@code /tmp} on the host, which the
 * worker's shell removes when the worker exits. Needs {@code ssh} here, and {@code tar} here and there.
 */
final class SshWorkers implements AutoCloseable {
    private static final long EPOCH = 315_532_800_000L; // 1980-01-01, the earliest time a zip entry holds
    private final Launcher.Builder config;
    private final List<String> localClassPath = List.of(System.getProperty("java.class.path").split(File.pathSeparator));
    /** The class path packed as jars, one per entry, numbered in class path order; null until shipped once. */
    private Path staged;

    SshWorkers(Launcher.Builder config) {
        this.config = config;
    }

    /**
     * Starts node {@code index} on {@code host} ({@code [user@]host}), which joins node 0 at {@code launcher}: the ssh
     * process's exit is the worker's (255 if ssh itself failed). Returns every process started for it, ssh last.
     */
    List<Process> start(String host, int index, String launcher, String programClass) throws IOException {
        String bind = host.substring(host.indexOf('@') + 1);
        List<String> java = new ArrayList<>();
        java.add(config.sshJava);
        java.addAll(Launcher.nativeAccess(config.jvmArgs));
        java.addAll(config.jvmArgs);
        java.add("-Dweft.heartbeat=" + config.heartbeatInterval.toMillis() + "," + config.heartbeatTimeout.toMillis());
        java.add("-Dweft.bind=" + bind);
        java.add("-Dweft.label=ssh " + host);
        java.add("-Dweft.index=" + index);
        java.add("-Dweft.joinWait=" + config.joinTimeout.toMillis()); // nothing ends a worker left behind over ssh
        List<String> ssh = new ArrayList<>(List.of("ssh", "-o", "BatchMode=yes"));
        ssh.addAll(config.sshOptions);
        ssh.add(host);
        if (config.shipClassPath) {
            String dir = "/tmp/weft-" + HexFormat.of().formatHex(new SecureRandom().generateSeed(8));
            List<String> remote = new ArrayList<>();
            for (Path jar : jars()) {
                remote.add(dir + "/" + jar.getFileName());
            }
            java.addAll(List.of("-cp", String.join(":", remote), WorkerMain.class.getName(), launcher, programClass));
            ssh.add("mkdir -p " + quote(dir) + " && tar -xf - -C " + quote(dir) + " && { " + shell(java)
                    + "; code=$?; rm -rf " + quote(dir) + "; exit $code; }");
            ProcessBuilder tar = new ProcessBuilder("tar", "-chf", "-", "-C", staged.toString(), ".")
                    .redirectError(ProcessBuilder.Redirect.INHERIT);
            ProcessBuilder remoteWorker = new ProcessBuilder(ssh).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                    .redirectError(ProcessBuilder.Redirect.INHERIT);
            return ProcessBuilder.startPipeline(List.of(tar, remoteWorker));
        }
        java.addAll(List.of("-cp", System.getProperty("java.class.path"), WorkerMain.class.getName(), launcher, programClass));
        ssh.add(shell(java));
        Process p = new ProcessBuilder(ssh).redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        p.getOutputStream().close(); // the worker reads nothing
        return List.of(p);
    }

    /** The staged jars, in class path order: packed at the first call. */
    private List<Path> jars() throws IOException {
        if (staged == null) {
            staged = Files.createTempDirectory("weft-classpath-");
            int i = 0;
            for (String entry : localClassPath) {
                Path from = Path.of(entry);
                Path to = staged.resolve(String.format("%03d-%s", i++, jarName(from)));
                if (Files.isDirectory(from)) {
                    pack(from, to);
                } else if (Files.isRegularFile(from)) {
                    Files.createSymbolicLink(to, from.toAbsolutePath()); // tar -h sends the jar itself
                }
            }
        }
        try (Stream<Path> jars = Files.list(staged)) {
            return jars.sorted().toList();
        }
    }

    private static String jarName(Path entry) {
        String name = entry.getFileName() == null ? "root" : entry.getFileName().toString();
        return name.endsWith(".jar") ? name : name + ".jar";
    }

    /** Packs directory {@code dir} into the jar {@code jar}: the same classes and resources, on any host. */
    static void pack(Path dir, Path jar) throws IOException {
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.filter(Files::isRegularFile).sorted()::iterator) {
                JarEntry e = new JarEntry(dir.relativize(f).toString().replace(File.separatorChar, '/'));
                e.setLastModifiedTime(FileTime.fromMillis(Math.max(EPOCH, Files.getLastModifiedTime(f).toMillis())));
                out.putNextEntry(e);
                Files.copy(f, (OutputStream) out);
                out.closeEntry();
            }
        }
    }

    /** {@code args} as one POSIX shell command line, each quoted. */
    static String shell(List<String> args) {
        List<String> quoted = new ArrayList<>();
        for (String a : args) {
            quoted.add(quote(a));
        }
        return String.join(" ", quoted);
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /** Removes the staged jars. */
    @Override
    public void close() {
        if (staged == null) {
            return;
        }
        try (Stream<Path> files = Files.walk(staged)) {
            for (Path f : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("could not remove " + staged, e);
        }
    }
}
