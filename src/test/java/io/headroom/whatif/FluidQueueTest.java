package io.headroom.whatif;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FluidQueueTest {

    private static double[] constant(double rate, int buckets) {
        double[] r = new double[buckets];
        Arrays.fill(r, rate);
        return r;
    }

    @Test
    void anUnderloadedQueueNeverWaitsAndHoldsArrivalsTimesServiceInFlight() {
        FluidQueue q = new FluidQueue(constant(2, 10), 30, 300, 0, 1.5, 8);
        q.advanceTo(120);
        assertEquals(0, q.backlog());
        assertEquals(0, q.oldestAge());
        assertEquals(3.0, q.busy(), 1e-9, "Little's law: λ × S in flight");
        assertEquals(240 - q.busy(), q.completed(), 1e-6, "what arrived and is not in flight is done");
    }

    @Test
    void anOverloadedQueueGrowsAtArrivalsMinusCapacityAndItsHeadAgesWithIt() {
        // 10 jobs/s against 4 slots of 1 s: the slots fill in ln(10/6) s, then the backlog grows 6 a second.
        FluidQueue q = new FluidQueue(constant(10, 10), 30, 300, 0, 1, 4);
        q.advanceTo(100);
        double fill = Math.log(10.0 / 6);
        assertEquals(4, q.busy(), 1e-9);
        assertEquals(6 * (100 - fill), q.backlog(), 1e-6);
        // FIFO: the head arrived when the arrival curve reached what has left the queue.
        assertEquals(q.backlog() / 10, q.oldestAge(), 1e-6);
        assertEquals(1000, q.completed() + q.busy() + q.backlog(), 1e-6, "nothing lost");
    }

    @Test
    void theInitialBacklogArrivedAtTheStartAndDrainsAtTheSlotsCapacity() {
        FluidQueue q = new FluidQueue(constant(0, 10), 30, 300, 60, 1, 0);
        q.advanceTo(50);
        assertEquals(60, q.backlog(), 1e-9, "no slot, no service");
        assertEquals(50, q.oldestAge(), 1e-9, "the backlog was waiting from the start");
        q.setSlots(6); // 6 start at once, then 6 a second: empty 9 s later
        q.advanceTo(58.999);
        assertTrue(q.backlog() > 0);
        q.advanceTo(59);
        assertEquals(0, q.backlog(), 1e-9);
        assertEquals(0, q.oldestAge());
        q.advanceTo(200);
        assertEquals(60, q.completed(), 1e-6);
    }

    @Test
    void podsThatGoFinishTheirWorkAndTakeNoNewUntilTheWorkInFlightFitsTheSlotsLeft() {
        FluidQueue q = new FluidQueue(constant(20, 10), 30, 300, 0, 2, 8);
        q.advanceTo(60);
        assertEquals(8, q.busy(), 1e-9);
        double backlog = q.backlog();
        q.setSlots(4);
        q.advanceTo(60 + 2 * Math.log(2) / 2); // halfway to 4 in flight: nothing new started
        assertEquals(8 * Math.exp(-Math.log(2) / 2), q.busy(), 1e-9);
        assertEquals(backlog + 20 * Math.log(2), q.backlog(), 1e-6);
        q.advanceTo(100);
        assertEquals(4, q.busy(), 1e-9, "back to the slots left, all busy");
    }

    @Test
    void workIsConservedWhateverTheSlotsAndRatesDo() {
        SplittableRandom r = new SplittableRandom(5);
        double[] rates = new double[200];
        for (int i = 0; i < rates.length; i++) {
            rates[i] = r.nextDouble() * 12;
        }
        FluidQueue q = new FluidQueue(rates, 1, 200, 25, 0.7, 3);
        double t = 0;
        while (t < 250) {
            t += r.nextDouble() * 3;
            q.advanceTo(t);
            assertEquals(25 + q.arrivals(t), q.completed() + q.busy() + q.backlog(), 1e-6, "at " + t);
            assertTrue(q.backlog() >= 0 && q.busy() >= 0 && q.oldestAge() >= 0 && q.oldestAge() <= t + 1e-9);
            if (r.nextInt(4) == 0) {
                q.setSlots(r.nextInt(12));
            }
        }
        assertEquals(Arrays.stream(rates).sum(), q.arrivals(250), 1e-6, "nothing arrives past the end");
    }

    @Test
    void selectFindsThePercentileASortWouldFind() {
        SplittableRandom r = new SplittableRandom(9);
        for (int round = 0; round < 50; round++) {
            int n = 1 + r.nextInt(3000);
            double[] a = new double[n + 5];
            for (int i = 0; i < n; i++) {
                a[i] = r.nextInt(3) == 0 ? 0 : r.nextInt(40) / 4.0; // many ties, as ages of an idle queue are
            }
            double[] sorted = Arrays.copyOf(a, n);
            Arrays.sort(sorted);
            int k = r.nextInt(n);
            assertEquals(sorted[k], Percentile.select(a, n, k), "n " + n + ", k " + k);
        }
    }
}
