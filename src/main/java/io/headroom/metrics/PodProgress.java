package io.headroom.metrics;

/**
 * One pod's work as its own metrics report it: jobs in flight now, and jobs it has finished so far
 * (a counter; only its changes matter). A pod that holds work while the counter stands still is not
 * making progress.
 *
 * @param completed NaN when the source has no per-pod completion counter
 */
public record PodProgress(double inFlight, double completed) {
}
