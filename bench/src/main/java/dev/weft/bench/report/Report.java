package dev.weft.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns one run's raw results into {@code latest.md} (a table of every workload on every peer, with each
 * peer's ratio to Weft) and {@code ratios.svg} (those ratios as a chart).
 *
 * <p>Inputs, in the results directory: {@code jmh.csv} (JMH's CSV result file) and {@code harness.txt} (the
 * {@code RESULT key value} lines of the memory and spawn+join harnesses). Run by {@code bench/run.sh}:
 * {@code java -cp benchmarks.jar dev.weft.bench.report.Report RESULTS_DIR}.
 */
public final class Report {
    /** The peers, in column order: result-key name and heading. */
    static final String[] PEERS = {"weft", "go", "jcsp", "kilim", "threads", "virtualThreads"};
    static final String[] HEADINGS = {"Weft", System.getProperty("bench.go", "Go"), "JCSP 1.1-rc5", "Kilim 2.0.2",
        "platform threads", "virtual threads"};

    private final Map<String, Double> values = new HashMap<>();
    private final Map<String, String> why = new HashMap<>();
    private final List<Row> rows = new ArrayList<>();
    private final List<String> footnotes = new ArrayList<>();

    /** One workload: a heading, a unit, and a key per peer into the values. */
    static final class Row {
        final String workload;
        final String unit;
        final String key;
        final boolean memory;

        Row(String workload, String unit, String key, boolean memory) {
            this.workload = workload;
            this.unit = unit;
            this.key = key;
            this.memory = memory;
        }
    }

    private Report() {
    }

    /** Reads {@code args[0]}/jmh.csv and harness.txt, writes latest.md and ratios.svg beside them. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "bench/results");
        Report r = new Report();
        r.readJmh(dir.resolve("jmh.csv"));
        r.readHarness(dir.resolve("harness.txt"));
        r.defineRows();
        r.explainGaps();
        Files.writeString(dir.resolve("latest.md"), r.markdown(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("ratios.svg"), r.svg(), StandardCharsets.UTF_8);
        System.out.println("wrote " + dir.resolve("latest.md") + " and " + dir.resolve("ratios.svg"));
    }

    // ------------------------------------------------------------------------------------------ reading

    void readJmh(Path csv) throws IOException {
        if (!Files.exists(csv)) {
            return;
        }
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (lines.isEmpty()) {
            return;
        }
        List<String> header = splitCsv(lines.get(0));
        int score = header.indexOf("Score");
        int tokens = header.indexOf("Param: tokens");
        int workers = header.indexOf("Param: workers");
        for (String line : lines.subList(1, lines.size())) {
            List<String> f = splitCsv(line);
            String name = f.get(0);
            String bench = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
            String cls = bench.substring(0, bench.indexOf('.'));
            String peer = bench.substring(bench.indexOf('.') + 1);
            String param = "";
            if (tokens >= 0 && tokens < f.size() && !f.get(tokens).isEmpty()) {
                param = "." + f.get(tokens);
            }
            if (workers >= 0 && workers < f.size() && !f.get(workers).isEmpty()) {
                param = "." + f.get(workers);
            }
            values.put(cls + param + "." + peer, Double.parseDouble(f.get(score)));
        }
    }

    void readHarness(Path txt) throws IOException {
        if (!Files.exists(txt)) {
            return;
        }
        for (String line : Files.readAllLines(txt, StandardCharsets.UTF_8)) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 3 && f[0].equals("RESULT")) {
                try {
                    values.put(f[1], Double.parseDouble(f[2]));
                } catch (NumberFormatException e) {
                    why.put(f[1], f[2]);
                }
            } else if (f.length >= 3 && f[0].equals("SKIPPED")) {
                why.put(f[1], line.trim().substring(line.trim().indexOf(f[1]) + f[1].length()).trim());
            }
        }
    }

    static List<String> splitCsv(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    // ------------------------------------------------------------------------------------------- layout

    void defineRows() {
        rows.add(new Row("CommsTime", "ns per communication", "CommsTimeBench", false));
        rows.add(new Row("Token ring, 256 elements, 1 token", "ns per hop", "TokenRingBench.1", false));
        rows.add(new Row("Token ring, 256 elements, 64 tokens", "ns per hop", "TokenRingBench.64", false));
        rows.add(new Row("Spawn+join", "ns per process", "spawnJoin", false));
        rows.add(new Row("Blocked process with its channel", "heap bytes per process", "blocked", true));
        rows.add(new Row("Blocked process, channel not counted", "heap bytes per process", "blockedAlone", true));
        rows.add(new Row("Mandelbrot farm, 1 worker", "ms per image", "MandelbrotBench.1", false));
        rows.add(new Row("Mandelbrot farm, 2 workers", "ms per image", "MandelbrotBench.2", false));
        rows.add(new Row("Fan-in, 8 writers to one any2one channel", "ns per value", "FanInBench", false));
        rows.add(new Row("Select over 4 channels", "ns per value", "SelectBench", false));
    }

    /** Why a cell is empty, where the reason is known in advance. */
    void explainGaps() {
        String version = System.getProperty("java.specification.version");
        boolean virtualThreads = Runtime.version().feature() >= 21;
        for (Row row : rows) {
            for (String peer : PEERS) {
                String k = row.key + "." + peer;
                if (values.containsKey(k) || why.containsKey(k)) {
                    continue;
                }
                if (peer.equals("go") && System.getProperty("bench.go") == null) {
                    why.put(k, "go was not on the PATH of this run");
                } else if (row.key.equals("SelectBench") && (peer.equals("threads") || peer.equals("virtualThreads"))) {
                    why.put(k, "java.util.concurrent has no select over SynchronousQueues");
                } else if (peer.equals("virtualThreads") && !virtualThreads) {
                    why.put(k, "virtual threads need JDK 21+; this run used JDK " + version);
                } else {
                    why.put(k, "no result in this run (see bench/results/jmh.log)");
                }
            }
        }
    }

    Double value(Row row, String peer) {
        return values.get(row.key + "." + peer);
    }

    /** Peer's figure over Weft's: above 1 the peer needs more time or memory than Weft. */
    Double ratio(Row row, String peer) {
        Double w = value(row, "weft");
        Double p = value(row, peer);
        return w == null || p == null || w <= 0 || p <= 0 ? null : p / w;
    }

    // ----------------------------------------------------------------------------------------- markdown

    String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# Weft and its peers: latest results\n\n");
        md.append("Each cell: the peer's figure, and in brackets its ratio to Weft's (peer / Weft; above 1x Weft is ")
                .append("faster or smaller). Lower figures are better everywhere.\n\n");
        md.append("| workload | unit |");
        for (String h : HEADINGS) {
            md.append(' ').append(h).append(" |");
        }
        md.append("\n|---|---|");
        for (int i = 0; i < PEERS.length; i++) {
            md.append("---:|");
        }
        md.append('\n');
        for (Row row : rows) {
            md.append("| ").append(row.workload).append(" | ").append(row.unit).append(" |");
            for (String peer : PEERS) {
                md.append(' ').append(cell(row, peer)).append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
        for (int i = 0; i < footnotes.size(); i++) {
            md.append("[").append(i + 1).append("] ").append(footnotes.get(i)).append("  \n");
        }
        md.append("\n![ratios to Weft per workload](ratios.svg)\n\n");
        md.append("## Machine\n\n").append(machine()).append('\n');
        md.append("## How the peers run\n\n");
        md.append("- **Weft**: fibers woven at build time by Weft's Maven plugin; `Scheduler.singleThreaded()`, ")
                .append("or `Scheduler.create(n)` for the farm at n workers; synchronous channels.\n");
        md.append("- **Go**: the same process networks in Go (`bench/go`, built by `run.sh` when `go` is on the ")
                .append("PATH), goroutines and unbuffered channels, `GOMAXPROCS=1` (n for the farm); median of 5 ")
                .append("rounds after 2 warm-up rounds; memory is heap plus goroutine stacks in use after two ")
                .append("collections. Go has no poison: CommsTime leaves its three ring goroutines blocked after ")
                .append("each round.\n");
        md.append("- **JCSP 1.1-rc5**: one platform thread per process (JCSP `Parallel`), synchronous channels, ")
                .append("`Alternative.fairSelect` for select.\n");
        md.append("- **Kilim 2.0.2**: tasks woven at build time by Kilim's own weaver; a Kilim scheduler with one ")
                .append("thread (n for the farm); `Mailbox(1, 1)` (one slot, Kilim has no rendezvous channel); ")
                .append("`Mailbox.select` for select. A Kilim mailbox has one consumer, so the farm's workers ask ")
                .append("the farmer for rows over a shared mailbox and get them on their own.\n");
        md.append("- **Platform threads**: one `Thread` per process, `SynchronousQueue` as the channel; the OS ")
                .append("schedules them on all cores.\n");
        md.append("- **Virtual threads**: the same code with `Thread.startVirtualThread` (looked up by method ")
                .append("handle, so the jar builds for Java 17); `jdk.virtualThreadScheduler.parallelism` = 1 ")
                .append("(n for the farm).\n");
        md.append("- Times: JMH, average time, 1 fork, 2 warm-up and 3 measured iterations of 1 s. Memory: a fresh ")
                .append("JVM per peer with a fixed 3 GB heap and the serial GC; heap in use after full ")
                .append("collections, before and after starting the blocked processes. Spawn+join: a fresh JVM ")
                .append("per peer, median of 5 rounds after 2 warm-up rounds.\n");
        return md.toString();
    }

    String cell(Row row, String peer) {
        Double v = value(row, peer);
        if (v == null) {
            return "n/a" + footnote(why.getOrDefault(row.key + "." + peer, "no result"));
        }
        StringBuilder s = new StringBuilder(format(v));
        Double r = ratio(row, peer);
        if (r != null && !peer.equals("weft")) {
            s.append(" (").append(String.format(Locale.ROOT, r < 10 ? "%.2fx" : "%.0fx", r)).append(')');
        }
        Double count = values.get(row.key + "." + peer + ".count");
        Double rss = values.get(row.key + "." + peer + ".rss");
        if (rss != null) {
            s.append(footnote(String.format(Locale.ROOT, "%s: heap only; the process's resident memory grew by "
                    + "%,.0f bytes per thread (native stacks live outside the heap)", label(peer), rss)));
        }
        if (count != null && count < 1_000_000 && !row.key.equals("blockedAlone")) {
            s.append(footnote(String.format(Locale.ROOT, "%s: measured with %,.0f processes, not 1,000,000 "
                    + "(one platform thread each)", label(peer), count)));
        }
        return s.toString();
    }

    String footnote(String text) {
        int i = footnotes.indexOf(text);
        if (i < 0) {
            footnotes.add(text);
            i = footnotes.size() - 1;
        }
        return " [" + (i + 1) + "]";
    }

    static String label(String peer) {
        for (int i = 0; i < PEERS.length; i++) {
            if (PEERS[i].equals(peer)) {
                return HEADINGS[i];
            }
        }
        return peer;
    }

    static String format(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (v >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String machine() {
        String cpu = "unknown CPU";
        String mem = "";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    cpu = line.substring(line.indexOf(':') + 1).trim();
                    break;
                }
            }
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal")) {
                    long kb = Long.parseLong(line.replaceAll("[^0-9]", ""));
                    mem = String.format(Locale.ROOT, ", %.0f GB of memory", kb / 1024.0 / 1024.0);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: keep what we have
        }
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("CPU", cpu + ", " + Runtime.getRuntime().availableProcessors() + " cores available" + mem);
        facts.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        facts.put("JDK", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        String date = System.getProperty("bench.date");
        if (date != null) {
            facts.put("Date", date);
        }
        String load = System.getProperty("bench.load");
        if (load != null) {
            facts.put("Load average (1, 5, 15 min)", load + " (on " + Runtime.getRuntime().availableProcessors()
                    + " cores: above that, other work shared the machine and the figures, the multi-core ones "
                    + "most, suffer)");
        }
        String commit = System.getProperty("bench.commit");
        if (commit != null) {
            facts.put("Commit", commit);
        }
        StringBuilder s = new StringBuilder();
        for (Map.Entry<String, String> e : facts.entrySet()) {
            s.append("- ").append(e.getKey()).append(": ").append(e.getValue()).append('\n');
        }
        return s.toString();
    }

    // ---------------------------------------------------------------------------------------------- svg

    /** Horizontal bars, one group per workload, one bar per peer: the ratio to Weft on a log scale. */
    String svg() {
        String[] colours = {"#76b7b2", "#4e79a7", "#f28e2b", "#59a14f", "#b07aa1"}; // one per peer but Weft
        int left = 300;
        int plot = 560;
        int bar = 12;
        int group = (PEERS.length - 1) * bar + 14;
        int top = 60;
        int height = top + rows.size() * group + 60;
        double min = 0.1;
        double max = 100;
        for (Row row : rows) {
            for (int p = 1; p < PEERS.length; p++) {
                Double r = ratio(row, PEERS[p]);
                if (r != null) {
                    min = Math.min(min, r);
                    max = Math.max(max, r);
                }
            }
        }
        double lo = Math.floor(Math.log10(min));
        double hi = Math.ceil(Math.log10(max));
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">\n", left + plot + 40, height));
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">"
                + "Peer / Weft, per workload (log scale; right of 1x: Weft is faster or smaller)</text>\n", 10));
        for (int p = 1; p < PEERS.length; p++) {
            int x = left + (p - 1) * 118;
            s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"34\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                    + "<text x=\"%d\" y=\"45\">%s</text>\n", x, colours[p - 1], x + 16, HEADINGS[p]));
        }
        for (double d = lo; d <= hi; d++) {
            double x = left + (d - lo) / (hi - lo) * plot;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\"/>\n",
                    x, top, x, height - 40, d == 0 ? "black" : "#ddd"));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%sx</text>\n",
                    x, height - 24, trim(Math.pow(10, d))));
        }
        double zero = left + (0 - lo) / (hi - lo) * plot;
        for (int i = 0; i < rows.size(); i++) {
            Row row = rows.get(i);
            int y = top + i * group;
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>\n",
                    left - 8, y + 2 * bar + 4, escape(row.workload)));
            if (value(row, "weft") == null) {
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" fill=\"#999\">no Weft figure: %s"
                        + "</text>\n", zero + 6, y + 2 * bar + 4,
                        escape(why.getOrDefault(row.key + ".weft", "no result"))));
                continue;
            }
            for (int p = 1; p < PEERS.length; p++) {
                Double r = ratio(row, PEERS[p]);
                int by = y + (p - 1) * bar;
                if (r == null) {
                    s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" fill=\"#999\" font-size=\"10\">"
                            + "n/a</text>\n", zero + 4, by + bar - 2));
                    continue;
                }
                double x = left + (Math.log10(r) - lo) / (hi - lo) * plot;
                double x0 = Math.min(x, zero);
                double w = Math.max(1, Math.abs(x - zero));
                s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                        + "fill=\"%s\"/>\n", x0, by, w, bar - 2, colours[p - 1]));
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\"%s>%s</text>\n",
                        r >= 1 ? x + 3 : x - 3, by + bar - 3, r >= 1 ? "" : " text-anchor=\"end\"",
                        String.format(Locale.ROOT, r < 10 ? "%.2fx" : "%.0fx", r)));
            }
        }
        s.append("</svg>\n");
        return s.toString();
    }

    private static String trim(double v) {
        return v >= 1 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%s", v);
    }

    private static String escape(String t) {
        return t.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
