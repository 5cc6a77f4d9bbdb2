package dev.weft.net.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import dev.weft.csp.PoisonException;
import dev.weft.net.HostileTransport;
import dev.weft.net.NetChannelInput;
import dev.weft.net.NetChannelLocation;
import dev.weft.net.NetChannelOutput;
import dev.weft.net.Node;
import dev.weft.net.TestCarriers;
import dev.weft.net.codec.KryoCodec;
import dev.weft.net.transport.Frame;
import dev.weft.net.transport.Link;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A peer that speaks the transport correctly but breaks the channel protocol: its link is refused, nothing is
 * built from its bytes, and the node serves everyone else. A value of a type the node does not allow fails only
 * its channel (a mismatch of configurations, see FirstContactTest), and is not built either.
 */
@Timeout(30)
public class HostilePeerTest {
    /** Built only if a hostile value were deserialised: construction has a side effect. */
    public static final class Gadget implements Serializable {
        private static final long serialVersionUID = 1L;
        public static final AtomicInteger BUILT = new AtomicInteger();
        public int payload;

        public Gadget() {
            BUILT.incrementAndGet();
        }

        private Object readResolve() {
            BUILT.incrementAndGet();
            return this;
        }
    }

    private static void assertRefused(Node victim, Frame frame) throws Exception {
        try (HostileTransport h = new HostileTransport(null)) {
            Link link = h.transport.link(victim.address());
            link.send(frame);
            String why = h.lost.get(10, TimeUnit.SECONDS);
            assertFalse(why.isEmpty());
        }
        // the victim goes on with everyone else
        try (Node friend = TestCarriers.builder().start()) {
            NetChannelInput<String> in = victim.net2one(1);
            friend.<String>one2net(in.location()).write("still serving");
            assertEquals("still serving", in.read());
        }
    }

    @Test
    void aGadgetIsNeverBuiltWhateverTheBytes() throws Exception {
        try (Node victim = TestCarriers.builder().start()) {
            NetChannelInput<Object> in = victim.net2one();
            ByteArrayOutputStream javaSerialised = new ByteArrayOutputStream();
            try (ObjectOutputStream o = new ObjectOutputStream(javaSerialised)) {
                o.writeObject(new Gadget());
            }
            int before = Gadget.BUILT.get();
            assertRefused(victim, new Frame((byte) 16, in.location().id(), 1, javaSerialised.toByteArray()));
            assertFalse(in.pending());
            // the gadget encoded by a codec that allows it, sent to a node that does not: its channel fails
            byte[] kryoGadget = new KryoCodec(Gadget.class).encode(new Gadget());
            before += 1; // the sender built one to encode
            try (HostileTransport h = new HostileTransport(null)) {
                h.transport.link(victim.address()).send(new Frame((byte) 16, in.location().id(), 1, kryoGadget));
                assertThrows(PoisonException.class, in::read);
            }
            assertEquals(before, Gadget.BUILT.get());
        }
    }

    @Test
    void moreValuesThanTheCreditRefuseTheLink() throws Exception {
        try (Node victim = TestCarriers.builder().start()) {
            NetChannelInput<Integer> in = victim.net2one(); // synchronous: one value in flight per writer
            byte[] one = new KryoCodec().encode(1);
            try (HostileTransport h = new HostileTransport(null)) {
                Link link = h.transport.link(victim.address());
                link.send(new Frame((byte) 16, in.location().id(), 7, one));
                link.send(new Frame((byte) 16, in.location().id(), 7, one));
                h.lost.get(10, TimeUnit.SECONDS); // the victim closed the link
            }
        }
    }

    @Test
    void anUnknownFrameTypeRefusesTheLink() throws Exception {
        try (Node victim = TestCarriers.builder().start()) {
            assertRefused(victim, new Frame((byte) 99, 1, 1));
        }
    }

    /** The frames of mobile inputs, malformed: an image, a numbered value, a home that cannot be read. */
    @Test
    void malformedMobileFramesRefuseTheLink() throws Exception {
        try (Node victim = TestCarriers.builder().start()) {
            long id = victim.net2one().location().id();
            byte[] value = new KryoCodec().encode(1);
            assertRefused(victim, new Frame(Protocol.END, id, 1, new byte[] {1, 2, 3}));
            EndImage image = new EndImage(new NetChannelLocation(victim.address(), 999), 1,
                    new NetChannelLocation(victim.address(), 998), 0, null, false, false,
                    List.of(new EndImage.Writer(victim.address(), 5, 1, 0, false, 0)),
                    List.of(new EndImage.Item(0, 0, value)), List.of());
            byte[] whole = image.encode();
            assertRefused(victim, new Frame(Protocol.END, id, 1, Arrays.copyOf(whole, whole.length - 1)));
            assertRefused(victim, new Frame(Protocol.DIRECT, id, 1, new byte[] {0, 0}));
            assertRefused(victim, new Frame(Protocol.DIRECT, id, 1, Parcel.direct((byte) 7, 1, value)));
            assertRefused(victim, new Frame(Protocol.DIRECT, id, 1, Parcel.direct(Protocol.VALUE, 0, value)));
            assertRefused(victim, new Frame(Protocol.FORWARD, id, 1, Parcel.direct(Protocol.VALUE, 1, value)));
            assertRefused(victim, new Frame(Protocol.REDIRECT, 12345, 1, new byte[] {9}));
            assertRefused(victim, new Frame(Protocol.HOME, id, 1, new byte[] {9}));
            assertRefused(victim, new Frame(Protocol.HOME, id, 0, Parcel.home(victim.address(), 3)));
        }
    }

    /** A value numbered twice, or beyond its credit, from a writer redirected to a moved input. */
    @Test
    void aNumberedValueTwiceRefusesTheLink() throws Exception {
        try (Node victim = TestCarriers.builder().start()) {
            long id = victim.net2one().location().id();
            byte[] value = new KryoCodec().encode(1);
            try (HostileTransport h = new HostileTransport(null)) {
                Link link = h.transport.link(victim.address());
                link.send(new Frame(Protocol.DIRECT, id, 7, Parcel.direct(Protocol.VALUE, 2, value))); // early: held
                link.send(new Frame(Protocol.DIRECT, id, 7, Parcel.direct(Protocol.VALUE, 2, value)));
                assertFalse(h.lost.get(10, TimeUnit.SECONDS).isEmpty());
            }
        }
    }

    @Test
    void aValueForNoInputIsAnsweredNotRefused() throws Exception {
        try (Node victim = TestCarriers.builder().start(); Node writer = TestCarriers.builder().start()) {
            NetChannelOutput<String> out = writer.one2net(new NetChannelLocation(victim.address(), 424242));
            try {
                out.write("to nobody");
                throw new AssertionError("a write to no input returned");
            } catch (dev.weft.csp.PoisonException expected) {
                assertTrue(expected.getMessage().contains("no net input"), expected.getMessage());
            }
        }
    }
}
