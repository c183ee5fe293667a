package io.headroom.drain;

/**
 * One pod a drain takes out.
 *
 * @param why      why the planner chose it ("not ready", "idle", "2 in flight")
 * @param inFlight jobs in flight at the last look; NaN when unknown
 * @param pending  the pod has not started (phase Pending): it cannot hold work, even with jobs unknown
 * @param gone     the pod has gone, or is terminating
 * @param markSeen the cluster view has shown this drain's marks on the pod (a watch cache lags a write:
 *                 until then a missing mark is not yet there, not removed)
 */
public record DrainPod(String name, String why, double inFlight, boolean pending, boolean gone, boolean markSeen) {

    /**
     * True when the pod holds no work: gone, nothing in flight, or never started. Readiness does not
     * count: a worker may turn itself unready when it sees its mark while jobs still run.
     */
    public boolean idle() {
        return gone || inFlight == 0 || Double.isNaN(inFlight) && pending;
    }

    DrainPod seen(double inFlightNow, boolean pendingNow, boolean goneNow) {
        return new DrainPod(name, why, inFlightNow, pendingNow, goneNow, markSeen);
    }

    DrainPod withMarkSeen() {
        return new DrainPod(name, why, inFlight, pending, gone, true);
    }
}
