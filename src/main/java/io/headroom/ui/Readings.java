package io.headroom.ui;

import io.headroom.decision.SignalName;
import io.headroom.decision.Decision;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Signal;
import io.headroom.loop.ClassSnapshot;

/** A tick's numbers as the screens show them: NaN where there is no reading, never a made-up value. */
public final class Readings {

    private Readings() {
    }

    /** The signal {@code name} as the metrics source gave it, NaN when absent. */
    public static double signal(ClassSnapshot s, SignalName name) {
        Signal v = s.signals().get(name);
        return v != null && v.present() ? v.value() : Double.NaN;
    }

    /** The input {@code signal} as the decision used it, NaN when it was not usable. */
    public static double input(Decision d, SignalName signal) {
        InputStatus in = d.input(signal);
        return in != null && in.usable() ? in.value() : Double.NaN;
    }
}
