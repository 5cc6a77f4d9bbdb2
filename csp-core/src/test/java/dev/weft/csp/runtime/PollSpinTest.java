package dev.weft.csp.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** An idle carrier poll-spins while its spins pay, looks now and then once they do not, and spins again once one pays. */
class PollSpinTest {
    @Test
    void spinsWhileTheSpinsPay() {
        PollSpin spin = new PollSpin();
        for (int i = 0; i < 1_000; i++) {
            assertTrue(spin.spinNow(), "idle " + i);
            if (i % PollSpin.VAIN_IN_A_ROW == 0) {
                spin.paid(); // one in eight pays: never eight vain in a row
            } else {
                spin.vain();
            }
        }
    }

    @Test
    void vainSpinsStopUntilALookPays() {
        PollSpin spin = new PollSpin();
        for (int i = 0; i < PollSpin.VAIN_IN_A_ROW; i++) {
            assertTrue(spin.spinNow());
            spin.vain();
        }
        int looks = 0;
        for (int idle = 0; idle < 10 * PollSpin.LOOK_EVERY; idle++) {
            if (spin.spinNow()) {
                looks++;
                spin.vain();
            }
        }
        assertEquals(10, looks, "one look in " + PollSpin.LOOK_EVERY + " idles while the spins find nothing");
        int idles = 0;
        while (!spin.spinNow()) {
            idles++;
        }
        assertTrue(idles < PollSpin.LOOK_EVERY);
        spin.paid(); // a look that brought a reply
        for (int i = 0; i < PollSpin.VAIN_IN_A_ROW; i++) {
            assertTrue(spin.spinNow(), "spinning again after a look paid, idle " + i);
            spin.vain();
        }
    }
}
