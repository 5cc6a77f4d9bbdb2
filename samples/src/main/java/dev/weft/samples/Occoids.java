package dev.weft.samples;

import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Barrier;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.PoisonException;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * An agent simulation in the style of occoids: flocking agents move over a torus of location processes.
 *
 * <p>The world is a grid of unit cells wrapped at the edges; each cell is a <em>location process</em> that
 * serves two requests over its any-to-one channel: an agent <em>enters</em> it with its state for a time step,
 * and an agent <em>looks</em> at it to learn who is there at a time step. Each agent is a process: per time
 * step it looks at the 3x3 cells around it, steers (cohesion, alignment, separation), moves, enters the cell it
 * lands in with its state for the next step, and syncs on a barrier shared by all agents. The barrier makes each
 * step's view complete and stable, and a location always answers with its occupants sorted by agent id, so the
 * floating-point result does not depend on scheduling: the checksum is the same on one and on many workers.
 *
 * <p>Run: {@code java -cp samples/target/classes:csp-core/target/classes dev.weft.samples.Occoids
 * [agents steps size workers]} (defaults 2000 100 32 and all processors): runs on 1 and on N workers and prints
 * both checksums.
 */
public final class Occoids {
    private static final double VISION = 1.0;
    private static final double TOO_CLOSE = 0.25;
    private static final double MAX_SPEED = 0.4;
    private static final double MIN_SPEED = 0.05;
    private static final Boid[] NOBODY = new Boid[0];

    private Occoids() {
    }

    /** An agent's state at one time step: position on the torus and velocity per step. */
    public record Boid(int id, double x, double y, double vx, double vy) {
    }

    /** An agent's request to be counted in a location from time step {@code step} on. */
    private record Enter(int step, Boid boid) {
    }

    /** An agent's request for the occupants of a location at time step {@code step}. */
    private record Look(int step, ChannelOutput<Boid[]> reply) {
    }

    /** Runs the simulation on 1 and on N workers and prints both checksums. */
    public static void main(String[] args) {
        int agents = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int size = args.length > 2 ? Integer.parseInt(args[2]) : 32;
        int workers = args.length > 3 ? Integer.parseInt(args[3]) : Runtime.getRuntime().availableProcessors();
        long[] sums = new long[2];
        long[] ms = new long[2];
        int[] counts = {1, workers};
        for (int k = 0; k < 2; k++) {
            try (Scheduler scheduler = Scheduler.create(counts[k])) {
                long start = System.nanoTime();
                sums[k] = checksum(run(scheduler, agents, steps, size, size, 42));
                ms[k] = (System.nanoTime() - start) / 1_000_000;
            }
        }
        System.out.printf("Occoids: checksum %016x on 1 worker (%d ms), %016x on %d workers (%d ms): %s "
                        + "(%d agents, %dx%d locations, %d steps)%n", sums[0], ms[0], sums[1], workers, ms[1],
                sums[0] == sums[1] ? "same" : "DIFFERENT", agents, size, size, steps);
    }

    /**
     * Runs {@code steps} time steps of {@code agents} agents over a {@code width} x {@code height} torus of
     * locations, starting from a layout drawn from {@code seed}; returns the agents' final states by id.
     *
     * @throws IllegalArgumentException if the torus is narrower than 3 cells either way
     */
    public static Boid[] run(Scheduler scheduler, int agents, int steps, int width, int height, long seed) {
        if (width < 3 || height < 3) {
            throw new IllegalArgumentException("the torus needs at least 3x3 locations");
        }
        Boid[] start = initial(agents, width, height, seed);
        Boid[] end = new Boid[agents];
        Weft.run(scheduler, () -> {
            @SuppressWarnings("unchecked")
            Any2OneChannel<Object>[] cells = new Any2OneChannel[width * height];
            for (int c = 0; c < cells.length; c++) {
                cells[c] = Channel.any2one();
            }
            Barrier step = new Barrier(agents);
            Parallel.run(
                    () -> {
                        Parallel.forRange(0, agents, i -> end[i] = agent(start[i], cells, width, height, steps, step));
                        for (Any2OneChannel<Object> c : cells) {
                            c.in().poison();
                        }
                    },
                    () -> Parallel.forRange(0, cells.length, c -> location(cells[c].in())));
        });
        return end;
    }

    /** Random positions and small random velocities, the same for the same seed. */
    static Boid[] initial(int agents, int width, int height, long seed) {
        Random random = new Random(seed);
        Boid[] boids = new Boid[agents];
        for (int i = 0; i < agents; i++) {
            double angle = random.nextDouble() * 2 * Math.PI;
            double speed = MIN_SPEED + random.nextDouble() * (MAX_SPEED - MIN_SPEED) / 2;
            boids[i] = new Boid(i, random.nextDouble() * width, random.nextDouble() * height,
                    speed * Math.cos(angle), speed * Math.sin(angle));
        }
        return boids;
    }

    /** One agent: looks, steers, moves and enters its next location, once per time step. */
    @Pausable
    static Boid agent(Boid me, Any2OneChannel<Object>[] cells, int width, int height, int steps, Barrier barrier) {
        One2OneChannel<Boid[]> reply = Channel.one2one();
        cells[cellOf(me, width, height)].out().write(new Enter(0, me));
        barrier.sync();
        for (int t = 0; t < steps; t++) {
            int cx = (int) me.x();
            int cy = (int) me.y();
            Steering s = new Steering();
            for (int dy = -1; dy <= 1; dy++) {
                for (int dx = -1; dx <= 1; dx++) {
                    int c = Math.floorMod(cy + dy, height) * width + Math.floorMod(cx + dx, width);
                    cells[c].out().write(new Look(t, reply.out()));
                    for (Boid other : reply.in().read()) {
                        s.add(me, other, width, height);
                    }
                }
            }
            me = s.steer(me, t, width, height);
            cells[cellOf(me, width, height)].out().write(new Enter(t + 1, me));
            barrier.sync();
        }
        return me;
    }

    /** One location: records who enters for which step and answers looks with the occupants sorted by id. */
    @Pausable
    static void location(ChannelInput<Object> requests) {
        List<Boid> incoming = new ArrayList<>();
        int incomingStep = -1;
        Boid[] occupants = NOBODY;
        int occupiedStep = -1;
        try {
            for (;;) {
                Object request = requests.read();
                if (request instanceof Enter e) {
                    if (e.step() != incomingStep) {
                        if (incomingStep >= 0) { // a later step begins: the earlier one is complete
                            occupants = sorted(incoming);
                            occupiedStep = incomingStep;
                        }
                        incoming = new ArrayList<>();
                        incomingStep = e.step();
                    }
                    incoming.add(e.boid());
                } else {
                    Look look = (Look) request;
                    if (look.step() == incomingStep) { // the first look at a step: every entry for it is in
                        occupants = sorted(incoming);
                        occupiedStep = incomingStep;
                        incoming = new ArrayList<>();
                        incomingStep = -1;
                    }
                    look.reply().write(look.step() == occupiedStep ? occupants : NOBODY);
                }
            }
        } catch (PoisonException e) {
            // the simulation is over
        }
    }

    private static Boid[] sorted(List<Boid> boids) {
        Boid[] a = boids.toArray(NOBODY);
        java.util.Arrays.sort(a, Comparator.comparingInt(Boid::id));
        return a;
    }

    static int cellOf(Boid b, int width, int height) {
        return Math.min((int) b.y(), height - 1) * width + Math.min((int) b.x(), width - 1);
    }

    /** A checksum over the final states, in id order. */
    public static long checksum(Boid[] boids) {
        long h = 17;
        for (Boid b : boids) {
            h = h * 31 + Double.doubleToLongBits(b.x());
            h = h * 31 + Double.doubleToLongBits(b.y());
            h = h * 31 + Double.doubleToLongBits(b.vx());
            h = h * 31 + Double.doubleToLongBits(b.vy());
        }
        return h;
    }

    /** The flocking rules, summed over the neighbours an agent sees. */
    private static final class Steering {
        private int seen;
        private double sumDx;
        private double sumDy;
        private double sumVx;
        private double sumVy;
        private double awayX;
        private double awayY;

        void add(Boid me, Boid other, int width, int height) {
            if (other.id() == me.id()) {
                return;
            }
            double dx = wrap(other.x() - me.x(), width);
            double dy = wrap(other.y() - me.y(), height);
            double d2 = dx * dx + dy * dy;
            if (d2 > VISION * VISION) {
                return;
            }
            seen++;
            sumDx += dx;
            sumDy += dy;
            sumVx += other.vx();
            sumVy += other.vy();
            if (d2 < TOO_CLOSE * TOO_CLOSE && d2 > 0) {
                awayX -= dx / d2;
                awayY -= dy / d2;
            }
        }

        Boid steer(Boid me, int step, int width, int height) {
            double vx = me.vx();
            double vy = me.vy();
            if (seen > 0) {
                vx += 0.02 * sumDx / seen + 0.1 * (sumVx / seen - vx) + 0.002 * awayX;
                vy += 0.02 * sumDy / seen + 0.1 * (sumVy / seen - vy) + 0.002 * awayY;
            }
            // a small deterministic wander, so that lone agents do not fly straight forever
            long h = (me.id() * 0x9E3779B97F4A7C15L) ^ (step * 0xC2B2AE3D27D4EB4FL);
            h ^= h >>> 29;
            double turn = ((h & 0xFFFF) / 65535.0 - 0.5) * 0.2;
            double cos = Math.cos(turn);
            double sin = Math.sin(turn);
            double rx = vx * cos - vy * sin;
            double ry = vx * sin + vy * cos;
            double speed = Math.sqrt(rx * rx + ry * ry);
            if (speed > MAX_SPEED) {
                rx *= MAX_SPEED / speed;
                ry *= MAX_SPEED / speed;
            } else if (speed < MIN_SPEED && speed > 0) {
                rx *= MIN_SPEED / speed;
                ry *= MIN_SPEED / speed;
            }
            return new Boid(me.id(), torus(me.x() + rx, width), torus(me.y() + ry, height), rx, ry);
        }

        /** The shortest signed distance on a ring of the given size. */
        private static double wrap(double d, int size) {
            if (d > size / 2.0) {
                return d - size;
            }
            if (d < -size / 2.0) {
                return d + size;
            }
            return d;
        }

        private static double torus(double v, int size) {
            double r = v % size;
            return r < 0 ? r + size : r;
        }
    }
}
