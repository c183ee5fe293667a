package io.headroom.supervise;

/** How a class is actuated. The decision is computed and shown in every mode. */
public enum Mode {
    /** Shadow: compute and chart, never act. */
    OBSERVE,
    /** Each change becomes a proposal the operator approves, overrides or rejects (the default). */
    SUPERVISED,
    /** Changes are applied as decided; opt-in per class, confirmed explicitly. */
    AUTO
}
