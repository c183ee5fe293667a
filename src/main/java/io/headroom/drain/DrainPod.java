package io.headroom.drain;

/**
 * One pod a drain takes out.
 *
 * @param why      why the planner chose it ("not ready", "idle", "2 in flight")
 * @param inFlight jobs in flight at the last look; NaN when unknown
 * @param ready    whether the pod was ready at the last look (a pod that is not ready holds no work)
 * @param gone     the pod has gone, or is terminating
 */
public record DrainPod(String name, String why, double inFlight, boolean ready, boolean gone) {

    /** True when the pod holds no work: gone, not ready, or nothing in flight. */
    public boolean idle() {
        return gone || !ready || inFlight == 0;
    }

    DrainPod seen(double inFlightNow, boolean readyNow, boolean goneNow) {
        return new DrainPod(name, why, inFlightNow, readyNow, goneNow);
    }
}
