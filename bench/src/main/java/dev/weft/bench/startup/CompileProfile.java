package dev.weft.bench.startup;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a short program's JIT time goes: runs a program in a fresh JVM with JFR's compilation,
 * deoptimization and inlining events and {@code -XX:+PrintCompilation}, then prints, for each method of
 * the packages asked for, its bytecode size, its machine code size at each tier, its OSR compilations, its
 * deoptimizations (with their reasons) and the calls the JIT refused to inline into it (with the reason),
 * and the JVM's total compilation time per compiler.
 *
 * <pre>java -cp bench/target/benchmarks.jar dev.weft.bench.startup.CompileProfile PREFIX -- JVM-ARGS... MAIN ARGS...</pre>
 *
 * <p>PREFIX selects the methods shown by class name ({@code dev.weft.samples.}); the child runs with the same
 * {@code java} as this program unless {@code -Dprofile.java=PATH} names another.
 */
public final class CompileProfile {
    private CompileProfile() {
    }

    /** One method's compilation profile. */
    private static final class Row {
        int bytecodes = -1;
        final Map<Integer, Integer> codeSize = new TreeMap<>(); // tier -> largest non-OSR code size
        int osr;
        final List<String> deopts = new ArrayList<>();
        final List<String> refused = new ArrayList<>();
    }

    /** {@code PREFIX -- JVM-ARGS... MAIN ARGS...}: prints the profile of the methods under PREFIX. */
    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 3 || !args[1].equals("--")) {
            System.err.println("usage: CompileProfile PREFIX -- JVM-ARGS... MAIN ARGS...");
            System.exit(2);
        }
        String prefix = args[0];
        Path jfr = Files.createTempFile("weft-compile", ".jfr");
        Path log = Files.createTempFile("weft-compile", ".log");
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("profile.java", Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.add("-XX:+PrintCompilation");
        cmd.add("-XX:StartFlightRecording:filename=" + jfr + ",settings=profile,jdk.Compilation#threshold=0ms,"
                + "jdk.CompilerInlining#enabled=true");
        cmd.addAll(List.of(args).subList(2, args.length));
        Process p = new ProcessBuilder(cmd).redirectOutput(log.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        if (p.waitFor() != 0) {
            System.err.println("the program failed; its output: " + log);
            System.exit(1);
        }
        Map<String, Row> rows = new TreeMap<>();
        // PrintCompilation: "  time  id  flags tier  pkg.Class::method (bytes)" and "@ bci" for OSR
        Pattern line = Pattern.compile("\\s(\\S+::\\S+)\\s+(?:@ \\d+ )?\\((\\d+) bytes\\)");
        for (String l : Files.readAllLines(log)) {
            Matcher m = line.matcher(l);
            if (m.find()) {
                String name = m.group(1).replace("::", ".");
                if (name.startsWith(prefix)) {
                    rows.computeIfAbsent(name, k -> new Row()).bytecodes = Integer.parseInt(m.group(2));
                }
            } else if (!l.matches("^\\s+\\d+\\s+\\d+\\s.*")) {
                System.out.println(l); // the program's own output
            }
        }
        Map<String, Duration> compileTime = new TreeMap<>();
        int[] deopts = new int[1];
        Map<String, Integer> deoptReasons = new TreeMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            switch (e.getEventType().getName()) {
                case "jdk.Compilation": {
                    compileTime.merge(e.getString("compiler"), e.getDuration(), Duration::plus);
                    String name = name(e.getValue("method"));
                    if (!name.startsWith(prefix) || !e.getBoolean("succeded")) {
                        break;
                    }
                    Row r = rows.computeIfAbsent(name, k -> new Row());
                    if (e.getBoolean("isOsr")) {
                        r.osr++;
                    } else {
                        r.codeSize.merge((int) e.getShort("compileLevel"), (int) e.getLong("codeSize"), Math::max);
                    }
                    break;
                }
                case "jdk.Deoptimization": {
                    deopts[0]++;
                    deoptReasons.merge(e.getString("reason"), 1, Integer::sum);
                    String name = name(e.getValue("method"));
                    if (name.startsWith(prefix)) {
                        rows.computeIfAbsent(name, k -> new Row()).deopts.add(e.getString("reason") + "@"
                                + e.getInt("lineNumber") + ":" + e.getInt("bci") + " " + e.getString("instruction")
                                + "/" + e.getString("action"));
                    }
                    break;
                }
                case "jdk.CompilerInlining": {
                    String caller = name(e.getValue("caller"));
                    if (caller.startsWith(prefix) && !e.getBoolean("succeeded")) {
                        RecordedObjectName callee = new RecordedObjectName(e.getValue("callee"));
                        rows.computeIfAbsent(caller, k -> new Row()).refused.add(callee + ": " + e.getString("message"));
                    }
                    break;
                }
                default:
                    break;
            }
        }
        System.out.printf("| method | bytecode | tier 1-3 code | C2 code | OSR | deopts (reason@line:bci instruction/action) | not inlined |%n");
        System.out.printf("|---|---:|---:|---:|---:|---|---|%n");
        rows.forEach((name, r) -> {
            int c1 = 0;
            for (int tier = 1; tier <= 3; tier++) {
                c1 = Math.max(c1, r.codeSize.getOrDefault(tier, 0));
            }
            System.out.printf("| %s | %s | %s | %s | %d | %s | %s |%n", name.substring(prefix.length()),
                    r.bytecodes < 0 ? "?" : r.bytecodes, c1 == 0 ? "-" : c1,
                    r.codeSize.containsKey(4) ? r.codeSize.get(4) : "-", r.osr,
                    String.join(", ", r.deopts), String.join("; ", r.refused.stream().distinct().toList()));
        });
        System.out.printf("compilation time: %s; deoptimizations in the JVM: %d %s%n", compileTime.entrySet().stream()
                .map(en -> en.getKey() + " " + en.getValue().toMillis() + " ms").toList(), deopts[0], deoptReasons);
        Files.delete(jfr);
        Files.delete(log);
    }

    private static String name(Object method) {
        if (!(method instanceof RecordedMethod)) {
            return "";
        }
        RecordedMethod m = (RecordedMethod) method;
        return m.getType().getName() + "." + m.getName();
    }

    /** The callee of an inlining event (a struct of type, name and descriptor), as {@code Class.method}. */
    private static final class RecordedObjectName {
        private final String text;

        RecordedObjectName(Object callee) {
            String t = String.valueOf(callee);
            Matcher m = Pattern.compile("type = \"([^\"]*)\"[\\s\\S]*?name = \"([^\"]*)\"").matcher(t);
            this.text = m.find() ? m.group(1).substring(m.group(1).lastIndexOf('/') + 1) + "." + m.group(2) : t;
        }

        @Override
        public String toString() {
            return text;
        }
    }
}
