package dev.weft.bench;

import dev.weft.csp.Alternative;
import dev.weft.csp.Any2OneChannel;
import dev.weft.csp.Channel;
import dev.weft.csp.ChannelInput;
import dev.weft.csp.ChannelOutput;
import dev.weft.csp.Fiber;
import dev.weft.csp.Guard;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Parallel;
import dev.weft.csp.Pausable;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Timer;
import dev.weft.csp.Weft;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * The Weft side of the workloads that have no sample of their own: fan-in, select, spawn+join, and processes blocked
 * on a channel (for weighing). CommsTime, the token ring and the farm come from {@code dev.weft.samples}.
 */
public final class WeftWorkloads {
    private WeftWorkloads() {
    }

    /** Fan-in: {@code writers} fibers each write {@code perWriter} values to one any-to-one channel. */
    public static long fanIn(Scheduler scheduler, int writers, int perWriter) {
        long[] sum = new long[1];
        Weft.run(scheduler, () -> {
            Any2OneChannel<Integer> channel = Channel.any2one();
            Parallel.run(
                    () -> Parallel.forRange(0, writers, w -> write(channel.out(), perWriter)),
                    () -> sum[0] = read(channel.in(), writers * perWriter));
        });
        return sum[0];
    }

    @Pausable
    static void write(ChannelOutput<Integer> out, int count) {
        for (int i = 1; i <= count; i++) {
            out.write(i);
        }
    }

    @Pausable
    static long read(ChannelInput<Integer> in, int count) {
        long s = 0;
        for (int i = 0; i < count; i++) {
            s += in.read();
        }
        return s;
    }

    /** Select: {@code channels} writers, each on its own channel; the reader alternates fairly over all. */
    public static long select(Scheduler scheduler, int channels, int perWriter) {
        long[] sum = new long[1];
        Weft.run(scheduler, () -> {
            @SuppressWarnings("unchecked")
            One2OneChannel<Integer>[] cs = new One2OneChannel[channels];
            for (int i = 0; i < channels; i++) {
                cs[i] = Channel.one2one();
            }
            Parallel.run(
                    () -> Parallel.forRange(0, channels, w -> write(cs[w].out(), perWriter)),
                    () -> sum[0] = selectAndRead(cs, channels * perWriter));
        });
        return sum[0];
    }

    @Pausable
    static long selectAndRead(One2OneChannel<Integer>[] channels, int count) {
        Guard[] guards = new Guard[channels.length];
        for (int i = 0; i < channels.length; i++) {
            guards[i] = channels[i].in();
        }
        Alternative alt = new Alternative(guards);
        long s = 0;
        for (int i = 0; i < count; i++) {
            s += channels[alt.fairSelect()].in().read();
        }
        return s;
    }

    /** Spawns {@code count} fibers that do nothing from one fiber, then joins each; returns how many ran. */
    public static int spawnJoin(Scheduler scheduler, int count) {
        AtomicInteger ran = new AtomicInteger();
        Weft.run(scheduler, () -> {
            Fiber[] fibers = new Fiber[count];
            for (int i = 0; i < count; i++) {
                fibers[i] = Weft.spawn(ran::incrementAndGet);
            }
            for (Fiber f : fibers) {
                f.join();
            }
        });
        return ran.get();
    }

    /**
     * Weighs fibers blocked reading a channel: starts one fiber per channel of {@code channels} (entries still
     * null are created by the fiber's parent after {@code before} is taken, so they are weighed with it), waits
     * until all are blocked, and calls {@code after}; then releases them.
     *
     * @param before taken before anything is created (the baseline)
     * @param after taken once all fibers are blocked
     */
    public static void weighBlocked(Scheduler scheduler, One2OneChannel<Integer>[] channels, LongSupplier before,
                                    LongSupplier after, long[] result) {
        int n = channels.length;
        AtomicInteger started = new AtomicInteger();
        result[0] = before.getAsLong();
        Weft.run(scheduler, () -> {
            for (int i = 0; i < n; i++) {
                if (channels[i] == null) {
                    channels[i] = Channel.one2one();
                }
                ChannelInput<Integer> in = channels[i].in();
                Weft.spawn(() -> {
                    started.incrementAndGet();
                    in.read();
                });
            }
            while (started.get() < n) {
                Timer.sleep(Duration.ofMillis(1));
            }
            Timer.sleep(Duration.ofMillis(20)); // on more than one worker, let the last ones finish pausing
            result[1] = after.getAsLong();
            for (One2OneChannel<Integer> c : channels) {
                c.out().write(1);
            }
        });
    }
}
