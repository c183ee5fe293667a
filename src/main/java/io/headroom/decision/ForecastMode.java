package io.headroom.decision;

import java.util.Locale;

/**
 * What a class does with its forecast (issue 29), a policy field ({@code forecast:} in a workloads file or scenario).
 * The default is {@link #FORECAST_ONLY}: the forecast is drawn and explained, and never acts.
 */
public enum ForecastMode {
    /** No forecast is made or shown. */
    OFF("off"),
    /** The forecast is made, drawn and explained; no proposal, no floor (AWS predictive scaling's ForecastOnly). */
    FORECAST_ONLY("forecast-only"),
    /** Ahead of a forecast rise a proposal to hold the forecast's slots reaches the inbox; approved, it is a floor. */
    PROPOSE("propose"),
    /** The floor is applied ahead of each forecast rise without asking, journaled and shown like a proposal. */
    AUTO("auto");

    private final String word;

    ForecastMode(String word) {
        this.word = word;
    }

    /** The word a file uses. */
    public String word() {
        return word;
    }

    /** Whether a floor may act (propose once approved, or auto). */
    public boolean acts() {
        return this == PROPOSE || this == AUTO;
    }

    /** The mode a file's word names, or null when it names none. */
    public static ForecastMode parse(String s) {
        if (s == null) {
            return null;
        }
        String w = s.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (ForecastMode m : values()) {
            if (m.word.equals(w)) {
                return m;
            }
        }
        return w.equals("forecast") ? FORECAST_ONLY : null;
    }
}
