package dev.weft.samples;

import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.One2AnyChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.awt.image.BufferedImage;
import java.io.File;
import java.io.IOException;
import javax.imageio.ImageIO;

/**
 * A processor farm: a farmer hands out row numbers over a one-to-any channel, worker processes compute the rows
 * and send them over an any-to-one channel to a harvester that assembles the image. Run on one and on several
 * carrier threads, it shows how an embarrassingly parallel job scales; the picture goes to
 * {@code mandelbrot.png}.
 *
 * <p>Run: {@code java -cp samples/target/classes:csp-core/target/classes dev.weft.samples.MandelbrotFarm
 * [width height maxIter workers file]} (defaults 1200 900 2000, all processors, mandelbrot.png).
 */
public final class MandelbrotFarm {
    private static final int END = -1;

    private MandelbrotFarm() {
    }

    /** One computed row on its way to the harvester. */
    private static final class Row {
        final int y;
        final int[] iterations;

        Row(int y, int[] iterations) {
            this.y = y;
            this.iterations = iterations;
        }
    }

    /** Renders on 1 and on N workers, prints both times and the speed-up, and writes the picture. */
    public static void main(String[] args) throws IOException {
        int width = args.length > 0 ? Integer.parseInt(args[0]) : 1200;
        int height = args.length > 1 ? Integer.parseInt(args[1]) : 900;
        int maxIter = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
        int workers = args.length > 3 ? Integer.parseInt(args[3]) : Runtime.getRuntime().availableProcessors();
        File file = new File(args.length > 4 ? args[4] : "mandelbrot.png");
        render(1, width, height / 4, maxIter); // warm-up
        long t1 = System.nanoTime();
        int[][] one = render(1, width, height, maxIter);
        t1 = System.nanoTime() - t1;
        long tn = System.nanoTime();
        int[][] many = render(workers, width, height, maxIter);
        tn = System.nanoTime() - tn;
        boolean same = Mandelbrot.checksum(one) == Mandelbrot.checksum(many);
        ImageIO.write(toImage(many, maxIter), "png", file);
        System.out.printf("MandelbrotFarm: %dx%d in %d ms on 1 worker, %d ms on %d workers: %.2fx speed-up "
                        + "(images %s; wrote %s)%n", width, height, t1 / 1_000_000, tn / 1_000_000, workers,
                (double) t1 / tn, same ? "identical" : "DIFFER", file);
    }

    /** Renders on a new scheduler with {@code workers} carriers and as many worker processes. */
    public static int[][] render(int workers, int width, int height, int maxIter) {
        try (Scheduler scheduler = Scheduler.create(workers)) {
            return render(scheduler, workers, width, height, maxIter);
        }
    }

    /** Renders with {@code workers} worker processes on {@code scheduler}; returns the iteration counts by row. */
    public static int[][] render(Scheduler scheduler, int workers, int width, int height, int maxIter) {
        int[][] image = new int[height][];
        Weft.run(scheduler, () -> {
            One2AnyChannel<Integer> jobs = Channel.one2any();
            Any2OneChannel<Row> results = Channel.any2one();
            Parallel.run(
                    () -> farmer(jobs.out(), height, workers),
                    () -> Parallel.forRange(0, workers, w -> worker(jobs.in(), results.out(), width, height, maxIter)),
                    () -> harvester(results.in(), image));
        });
        return image;
    }

    @Pausable
    static void farmer(ChannelOutput<Integer> jobs, int height, int workers) {
        for (int y = 0; y < height; y++) {
            jobs.write(y);
        }
        for (int w = 0; w < workers; w++) {
            jobs.write(END);
        }
    }

    @Pausable
    static void worker(ChannelInput<Integer> jobs, ChannelOutput<Row> results, int width, int height, int maxIter) {
        for (int y = jobs.read(); y != END; y = jobs.read()) {
            results.write(new Row(y, Mandelbrot.row(y, width, height, maxIter)));
        }
    }

    @Pausable
    static void harvester(ChannelInput<Row> results, int[][] image) {
        for (int i = 0; i < image.length; i++) {
            Row r = results.read();
            image[r.y] = r.iterations;
        }
    }

    /** Colours an image of iteration counts: black inside the set, a smooth palette outside. */
    public static BufferedImage toImage(int[][] rows, int maxIter) {
        int height = rows.length;
        int width = height == 0 ? 0 : rows[0].length;
        BufferedImage img = new BufferedImage(Math.max(width, 1), Math.max(height, 1), BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int n = rows[y][x];
                int rgb = 0;
                if (n < maxIter) {
                    double t = Math.log(n + 1) / Math.log(maxIter + 1);
                    rgb = java.awt.Color.HSBtoRGB((float) (0.62 + 0.9 * t), 0.85f, (float) Math.min(1.0, 2.2 * t));
                }
                img.setRGB(x, y, rgb);
            }
        }
        return img;
    }
}
