package dev.weft.csp.runtime;

/**
 * Room on the stack, checked before a critical section starts. A {@link StackOverflowError} can strike at any
 * call, so a thread whose stack is nearly full could fail inside a critical section: with a spin lock held
 * for good, a queue half changed, or a partner taken from a queue and never woken. Checking first makes the
 * error strike before anything has changed.
 *
 * <p>Each method declares many long locals, each with a slot of its own in the interpreter's frame, so that
 * entering it interpreted checks for that much room below the caller. Compiled code checks at least as far:
 * on entry to a compiled method HotSpot bangs the stack as deep as the interpreter frames that a
 * deoptimization at any of its calls would need (so that deoptimization itself never overflows), and the
 * never taken branch below is such a call, whether the method is inlined or not. A compiled caller pays a
 * few more stack bangs in its prologue and nothing else.
 *
 * <p>Two sizes, because they nest: {@link #forOperation()} covers a whole channel operation or select (its
 * critical section, the wake-ups after it, the start of a pause), including the runtime's own spin locks
 * taken on the way (the run queues), each of which checks {@link #forLock()} first: the smaller check, made
 * deeper down, passes whenever the larger one did above it.
 *
 * <p>Runtime internals, not an API for users.
 */
public final class StackReserve {
    /** Never set. Its branch keeps a call in compiled code: see above. */
    private static boolean never;

    private StackReserve() {
    }

    /** Throws {@link StackOverflowError} unless 4 KB of stack are free: before a channel operation or a select. */
    @SuppressWarnings("unused")
    public static void forOperation() {
        long a000, a001, a002, a003, a004, a005, a006, a007, a008, a009, a010, a011, a012, a013, a014, a015;
        long a016, a017, a018, a019, a020, a021, a022, a023, a024, a025, a026, a027, a028, a029, a030, a031;
        long a032, a033, a034, a035, a036, a037, a038, a039, a040, a041, a042, a043, a044, a045, a046, a047;
        long a048, a049, a050, a051, a052, a053, a054, a055, a056, a057, a058, a059, a060, a061, a062, a063;
        long a064, a065, a066, a067, a068, a069, a070, a071, a072, a073, a074, a075, a076, a077, a078, a079;
        long a080, a081, a082, a083, a084, a085, a086, a087, a088, a089, a090, a091, a092, a093, a094, a095;
        long a096, a097, a098, a099, a100, a101, a102, a103, a104, a105, a106, a107, a108, a109, a110, a111;
        long a112, a113, a114, a115, a116, a117, a118, a119, a120, a121, a122, a123, a124, a125, a126, a127;
        long a128, a129, a130, a131, a132, a133, a134, a135, a136, a137, a138, a139, a140, a141, a142, a143;
        long a144, a145, a146, a147, a148, a149, a150, a151, a152, a153, a154, a155, a156, a157, a158, a159;
        long a160, a161, a162, a163, a164, a165, a166, a167, a168, a169, a170, a171, a172, a173, a174, a175;
        long a176, a177, a178, a179, a180, a181, a182, a183, a184, a185, a186, a187, a188, a189, a190, a191;
        long a192, a193, a194, a195, a196, a197, a198, a199, a200, a201, a202, a203, a204, a205, a206, a207;
        long a208, a209, a210, a211, a212, a213, a214, a215, a216, a217, a218, a219, a220, a221, a222, a223;
        long a224, a225, a226, a227, a228, a229, a230, a231, a232, a233, a234, a235, a236, a237, a238, a239;
        long a240, a241, a242, a243, a244, a245, a246, a247, a248, a249, a250, a251, a252, a253, a254, a255;
        long a256, a257, a258, a259, a260, a261, a262, a263, a264, a265, a266, a267, a268, a269, a270, a271;
        long a272, a273, a274, a275, a276, a277, a278, a279, a280, a281, a282, a283, a284, a285, a286, a287;
        long a288, a289, a290, a291, a292, a293, a294, a295, a296, a297, a298, a299, a300, a301, a302, a303;
        long a304, a305, a306, a307, a308, a309, a310, a311, a312, a313, a314, a315, a316, a317, a318, a319;
        long a320, a321, a322, a323, a324, a325, a326, a327, a328, a329, a330, a331, a332, a333, a334, a335;
        long a336, a337, a338, a339, a340, a341, a342, a343, a344, a345, a346, a347, a348, a349, a350, a351;
        long a352, a353, a354, a355, a356, a357, a358, a359, a360, a361, a362, a363, a364, a365, a366, a367;
        long a368, a369, a370, a371, a372, a373, a374, a375, a376, a377, a378, a379, a380, a381, a382, a383;
        long a384, a385, a386, a387, a388, a389, a390, a391, a392, a393, a394, a395, a396, a397, a398, a399;
        long a400, a401, a402, a403, a404, a405, a406, a407, a408, a409, a410, a411, a412, a413, a414, a415;
        long a416, a417, a418, a419, a420, a421, a422, a423, a424, a425, a426, a427, a428, a429, a430, a431;
        long a432, a433, a434, a435, a436, a437, a438, a439, a440, a441, a442, a443, a444, a445, a446, a447;
        long a448, a449, a450, a451, a452, a453, a454, a455, a456, a457, a458, a459, a460, a461, a462, a463;
        long a464, a465, a466, a467, a468, a469, a470, a471, a472, a473, a474, a475, a476, a477, a478, a479;
        long a480, a481, a482, a483, a484, a485, a486, a487, a488, a489, a490, a491, a492, a493, a494, a495;
        long a496, a497, a498, a499, a500, a501, a502, a503, a504, a505, a506, a507, a508, a509, a510, a511;
        if (never) {
            throw new IllegalStateException();
        }
    }

    /** Throws {@link StackOverflowError} unless 1 KB of stack are free: before a runtime spin lock. */
    @SuppressWarnings("unused")
    public static void forLock() {
        long b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015;
        long b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031;
        long b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047;
        long b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063;
        long b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079;
        long b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095;
        long b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111;
        long b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;
        if (never) {
            throw new IllegalStateException();
        }
    }
}
