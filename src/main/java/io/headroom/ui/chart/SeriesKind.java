package io.headroom.ui.chart;

/** How a series joins its samples. */
public enum SeriesKind {
    /** Straight lines between samples: rates, ages, durations. */
    LINE,
    /** A value holds until the next sample: replica counts, ceilings, anything set, not measured. */
    STEP
}
