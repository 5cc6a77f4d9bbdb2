package dev.weft.net.internal;

import java.nio.ByteBuffer;

/**
 * The channel layer's frame types (see {@link dev.weft.net.transport.Frame}). A writer is a {@link Lane}: one
 * write (or one client transaction) at a time, named on the wire by its lane id on the writer's node.
 *
 * <pre>
 * DATA           channel = input id,  number = lane id,  payload = the value      writer to input
 * ACK            channel = lane id                                                 input to writer: a
 *                                                                                  synchronous value was read
 * OPENED         channel = lane id,   number = capacity                           input to writer: buffered,
 *                                                                                  the first value is in the buffer
 * CREDIT         channel = lane id,   number = values read                        input to writer: room again
 * POISON_INPUT   channel = input id,  number = lane id                            writer poisons the channel
 * POISON_LANE    channel = lane id,   number = NO_SUCH_INPUT, POISONED, CLOSED,     input to writer
 *                LOST or TYPE_NOT_ALLOWED (payload: the type's wire id, 4 bytes)
 * CLOSE_INPUT    channel = input id                                               writer closes the channel:
 *                                                                                  values sent before it are
 *                                                                                  still read
 * WITHDRAW       channel = input id,  number = lane id                            a cancelled writer takes back
 *                                                                                  its value if still unread
 * WITHDRAWN      channel = lane id                                                 input to writer: taken back
 *                                                                                  (else the read's ACK answers)
 * REPLY          channel = lane id,   payload = the reply                         connection server to client
 * NAME_*         channel = request id, payload = a name (UTF-8) or a location      name service
 *
 * Mobile inputs (see {@link InputMove}):
 * END            as DATA, payload = a moving input's {@link EndImage}             writer to input
 * DIRECT         channel = input id at its home,  number = lane id,             writer to a moved input
 *                payload = kind, sequence number, bytes
 * FORWARD        channel = input id at the next node,  number = lane id,        old home to newer home
 *                payload = kind, sequence number, writer's address, bytes
 * REDIRECT       channel = lane id,   number = move count,                     old home to writer: write
 *                payload = home address, input id there                          to the newer home directly
 * HOME           channel = input id at the old home,  number = move count,      new home to old homes
 *                payload = home address, input id there
 * </pre>
 *
 * Credits bound what a writer may have in flight: one value on a synchronous channel, capacity values on a
 * buffered one (per writing lane), given back in batches of half the capacity. A peer that sends more than
 * its credit breaks the protocol and its link is refused.
 */
final class Protocol {
    static final byte DATA = 16;
    static final byte ACK = 17;
    static final byte OPENED = 18;
    static final byte CREDIT = 19;
    static final byte POISON_INPUT = 20;
    static final byte POISON_LANE = 21;
    static final byte WITHDRAW = 22;
    static final byte REPLY = 23;
    static final byte WITHDRAWN = 24;
    static final byte CLOSE_INPUT = 25;
    static final byte END = 26;
    static final byte DIRECT = 27;
    static final byte FORWARD = 28;
    static final byte REDIRECT = 29;
    static final byte HOME = 30;
    static final byte NAME_REGISTER = 32;
    static final byte NAME_RESOLVE = 33;
    static final byte NAME_ANSWER = 34;
    static final byte NAME_FORGET = 35;

    /** {@link #POISON_LANE}'s number: the input does not exist (never did, or its node has forgotten it). */
    static final long NO_SUCH_INPUT = 1;
    /** {@link #POISON_LANE}'s number: the input was poisoned. */
    static final long POISONED = 2;
    /** {@link #POISON_LANE}'s number: the channel was closed; the value that this answers was not taken. */
    static final long CLOSED = 3;
    /** {@link #POISON_LANE}'s number: the input moved to a node that was lost (or the move failed). */
    static final long LOST = 4;
    /** {@link #POISON_LANE}'s number: the reader's codec does not allow the value's type (payload: its wire id). */
    static final long TYPE_NOT_ALLOWED = 5;

    /** What a DIRECT or FORWARD frame carries: a value, a moving input, or a cancelled writer's withdrawal. */
    static final byte VALUE = 0;
    static final byte MOVING_END = 1;
    static final byte WITHDRAWAL = 2;

    private Protocol() {
    }

    /** {@link #TYPE_NOT_ALLOWED}'s payload. */
    static byte[] wireId(int id) {
        return ByteBuffer.allocate(Integer.BYTES).putInt(id).array();
    }

    /** The wire id in a {@link #TYPE_NOT_ALLOWED} payload, or null if it holds none. */
    static Integer wireId(byte[] payload) {
        return payload.length == Integer.BYTES ? ByteBuffer.wrap(payload).getInt() : null;
    }
}
