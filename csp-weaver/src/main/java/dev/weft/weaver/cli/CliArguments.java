package dev.weft.weaver.cli;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The parsed command line {@code [-cp PATH] IN... -d OUT}: what to weave, what it calls, where to put it.
 *
 * @param inputs    class directories and jars to weave, in the order given
 * @param classpath libraries the inputs call, searched after the inputs
 * @param output    the directory, or the jar ({@code *.jar}), that receives every entry of the inputs
 * @param help      whether help was asked for (the other fields are then empty)
 * @param preemptive whether to insert preemption checks at loop back-edges ({@code --preemptive})
 */
record CliArguments(List<Path> inputs, List<Path> classpath, Path output, boolean help, boolean preemptive) {
    static final String USAGE = String.join(System.lineSeparator(),
            "usage: java -jar csp-weaver.jar [-cp PATH] [--preemptive] IN... -d OUT",
            "  IN        class directories or jars whose @Pausable code to weave",
            "  -cp PATH  libraries they call, separated by '" + File.pathSeparator + "' (also -classpath,"
                    + " --class-path), as for javac; dir/* means every jar in dir",
            "  -d OUT    output directory, or jar if OUT ends with .jar; receives every class of IN (woven or"
                    + " unchanged) and every other file, so that OUT alone replaces IN",
            "  --preemptive  also insert a preemption check at every loop back-edge of pausable code, so that"
                    + " a fiber spinning in a loop cannot starve the others on its carrier",
            "exit status: 0 woven, 1 weave errors (printed as File.java:42: message), 2 bad arguments",
            "       java -jar csp-weaver.jar dump PID",
            "  prints the fiber dump of every Weft scheduler in the running JVM PID (as jstack PID does threads)");

    /** Parses and checks {@code args}; paths must exist as described in {@link #USAGE}. */
    static CliArguments parse(String... args) throws UsageException {
        List<Path> inputs = new ArrayList<>();
        List<Path> classpath = new ArrayList<>();
        Path output = null;
        boolean preemptive = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "-h", "-help", "--help", "-?" -> {
                    return new CliArguments(List.of(), List.of(), null, true, false);
                }
                case "--preemptive" -> preemptive = true;
                case "-cp", "-classpath", "--class-path" -> classpath.addAll(splitPath(value(args, ++i, a)));
                case "-d" -> {
                    if (output != null) {
                        throw new UsageException("-d given twice");
                    }
                    output = Path.of(value(args, ++i, a));
                }
                default -> {
                    if (a.startsWith("-")) {
                        throw new UsageException("unknown option " + a);
                    }
                    inputs.add(Path.of(a));
                }
            }
        }
        if (inputs.isEmpty()) {
            throw new UsageException("no input: name at least one class directory or jar to weave");
        }
        if (output == null) {
            throw new UsageException("no output directory: add -d OUT");
        }
        check(inputs, output);
        return new CliArguments(List.copyOf(inputs), List.copyOf(classpath), output, false, preemptive);
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length || args[i].isEmpty()) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    private static List<Path> splitPath(String path) throws UsageException {
        List<Path> paths = new ArrayList<>();
        for (String p : path.split(File.pathSeparator)) {
            if (p.equals("*") || p.endsWith(File.separator + "*") || p.endsWith("/*")) {
                String dir = p.substring(0, p.length() - 1);
                paths.addAll(jarsIn(Path.of(dir.isEmpty() ? "." : dir)));
            } else if (!p.isEmpty()) {
                paths.add(Path.of(p));
            }
        }
        return paths;
    }

    /** {@code dir/*} means every jar in dir, as for javac and java. */
    private static List<Path> jarsIn(Path dir) throws UsageException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".jar"))
                    .sorted()
                    .collect(Collectors.toList());
        } catch (IOException e) {
            throw new UsageException("cannot list " + dir + ": " + e.getMessage());
        }
    }

    private static void check(List<Path> inputs, Path output) throws UsageException {
        boolean jar = Output.isJar(output);
        if (jar ? Files.isDirectory(output) : Files.exists(output) && !Files.isDirectory(output)) {
            throw new UsageException("output " + output + " exists and is not a " + (jar ? "jar" : "directory"));
        }
        Path out = output.toAbsolutePath().normalize();
        for (Path in : inputs) {
            if (jar && out.equals(in.toAbsolutePath().normalize())) {
                throw new UsageException("output " + output + " must not be input " + in + ": weave into a new jar");
            }
            if (Files.isDirectory(in)) {
                // Writing into the tree being read would weave the output again, or overwrite the input.
                if (out.startsWith(in.toAbsolutePath().normalize())) {
                    throw new UsageException("output " + output + " must not be input " + in
                            + " or inside it: weave into a fresh directory");
                }
            } else if (!Files.isRegularFile(in)) {
                throw new UsageException("input " + in + " does not exist");
            }
        }
    }
}
