package app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.csp.Channel;
import dev.weft.csp.One2OneChannel;
import dev.weft.csp.Scheduler;
import dev.weft.csp.Weft;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class PositiveFilterTest {
    @Test
    void copiesThePositiveNumbersAndCountsTheOthers() {
        List<Integer> copied = new ArrayList<>();
        int[] dropped = new int[1];
        try (Scheduler scheduler = Scheduler.singleThreaded()) {
            Weft.run(scheduler, () -> {
                One2OneChannel<Integer> numbers = Channel.one2one();
                One2OneChannel<Integer> positive = Channel.one2one();
                Weft.spawn(() -> {
                    for (int v : new int[] {3, -1, 4, 0}) {
                        numbers.out().write(v);
                    }
                });
                Weft.spawn(() -> dropped[0] = PositiveFilter.copy(numbers.in(), positive.out()));
                copied.add(positive.in().read());
                copied.add(positive.in().read());
            });
        }
        assertEquals(List.of(3, 4), copied);
        assertEquals(1, dropped[0]);
    }
}
