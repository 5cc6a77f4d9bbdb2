package dev.weft.csp.abi;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.invoke.CallSite;
import java.lang.invoke.ConstantCallSite;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The constant that woven code saves for each pausable call: bound once by invokedynamic, or interned. */
@Timeout(30)
class PauseSiteTest {
    private static final String TEXT = "app.Steps.sum(Steps.java:12)";

    @Test
    void theBootstrapBindsItsCallSiteToOneConstantSite() throws Throwable {
        MethodType type = MethodType.methodType(PauseSite.class);
        CallSite cs = PauseSite.bootstrap(MethodHandles.lookup(), "pauseSite", type, TEXT, 300, 2);

        assertEquals(ConstantCallSite.class, cs.getClass());
        assertEquals(type, cs.type());
        PauseSite site = (PauseSite) cs.dynamicInvoker().invoke();
        assertSame(site, (PauseSite) cs.getTarget().invoke(), "the same object at every pause");
        assertEquals(TEXT, site.text());
        assertEquals(300, site.point());
        assertEquals(2, site.refs());
        assertEquals(TEXT, site.toString());
    }

    @Test
    void theSlowPathGivesOneSitePerTextAndPoint() {
        PauseSite first = PauseSite.of(TEXT, 2, 1);
        PauseSite copy = PauseSite.of(new String(TEXT.toCharArray()), 2, 1); // equal text, not the same String
        PauseSite other = PauseSite.of(TEXT, 0, 1);
        PauseSite far = PauseSite.of(TEXT, 1000, 1); // grows the text's array past its first length

        assertSame(first, copy);
        assertSame(other, PauseSite.of(TEXT, 0, 1));
        assertSame(first, PauseSite.of(TEXT, 2, 1), "growing for point 1000 kept point 2's site");
        assertNotSame(first, other);
        assertEquals(2, first.point());
        assertEquals(0, other.point());
        assertEquals(1000, far.point());
        assertEquals(TEXT, far.text());
        assertNotSame(first, PauseSite.of("app.Steps.sum(Steps.java:13)", 2, 1), "another line, another site");
        PauseSite overload = PauseSite.of(TEXT, 2, 3); // another method of that name on that line saves more
        assertEquals(3, overload.refs());
        assertEquals(2, overload.point());
        assertSame(first, PauseSite.of(TEXT, 2, 1), "the interned site is kept");
    }

    @Test
    void aNegativeResumePointOrCountIsRefused() {
        MethodType type = MethodType.methodType(PauseSite.class);
        assertThrows(IllegalArgumentException.class, () -> PauseSite.of(TEXT, -1, 1));
        assertThrows(IllegalArgumentException.class,
                () -> PauseSite.bootstrap(MethodHandles.lookup(), "pauseSite", type, TEXT, -1, 0));
        assertThrows(IllegalArgumentException.class, () -> PauseSite.of(TEXT, 5, -1));
    }

    /** Threads that meet a site of an old class file for the first time at once all get the same object. */
    @Test
    void racingThreadsInternOneSitePerPoint() throws Exception {
        int threads = 4;
        int points = 64;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 50; round++) {
                String text = "race.Site.run(Site.java:" + round + ")";
                List<Future<PauseSite[]>> results = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int start = t;
                    results.add(pool.submit(() -> {
                        PauseSite[] got = new PauseSite[points];
                        for (int i = 0; i < points; i++) {
                            int p = (start * 17 + i) % points; // each thread meets the points in another order
                            got[p] = PauseSite.of(text, p, 1);
                        }
                        return got;
                    }));
                }
                PauseSite[] expected = results.get(0).get();
                for (Future<PauseSite[]> f : results) {
                    PauseSite[] got = f.get();
                    for (int p = 0; p < points; p++) {
                        assertSame(expected[p], got[p], text + " point " + p);
                        assertEquals(p, got[p].point());
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
