package io.headroom.ui.detail;

import io.headroom.decision.Decision;
import io.headroom.decision.ForecastMode;
import io.headroom.decision.InputStatus;
import io.headroom.decision.Policy;
import io.headroom.decision.Signals;
import io.headroom.forecast.ClassForecasts;
import io.headroom.forecast.Forecast;
import io.headroom.loop.ClassSnapshot;
import io.headroom.ui.chart.ForecastBand;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.Supplier;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The detail's forecast section (issue 29): the selected class's forecast in words or why there is none, its mode,
 * how much of the week is in, and the bands the load and capacity charts draw. Reads the session's
 * {@link ClassForecasts} (made in the background) on each refresh; FX thread only; holds no nodes.
 */
public final class ForecastViewModel {

    private final StringProperty mode = new SimpleStringProperty("");
    private final StringProperty words = new SimpleStringProperty("");
    private final StringProperty service = new SimpleStringProperty("");
    private final StringProperty history = new SimpleStringProperty("");
    private final BooleanProperty available = new SimpleBooleanProperty();
    private final ObjectProperty<ForecastBand> loadBand = new SimpleObjectProperty<>();
    private final ObjectProperty<ForecastBand> capacityBand = new SimpleObjectProperty<>();

    private final Function<String, ClassSnapshot> latest;
    private ClassForecasts forecasts = ClassForecasts.NONE;
    private Supplier<String> historyWords = () -> "";
    // The forecasts the bands were made from: a band is rebuilt only when one of them changed.
    private Forecast shownArrivals;
    private Forecast shownService;
    private Forecast shownWork;
    private ClassSnapshot shownFor;

    ForecastViewModel(Function<String, ClassSnapshot> latest) {
        this.latest = latest;
    }

    /** "forecast only · drawn and explained, never acts", "propose · …", "auto · …", "off". */
    public StringProperty modeProperty() { return mode; }
    /** The arrivals forecast in words, or "no forecast: why". */
    public StringProperty wordsProperty() { return words; }
    /** The mean service time's forecast in words, or why there is none; empty when there is no arrivals one. */
    public StringProperty serviceProperty() { return service; }
    /** How much of the week is in: "history: 3 of 7 days…". */
    public StringProperty historyProperty() { return history; }
    public BooleanProperty availableProperty() { return available; }
    /** The arrivals forecast in jobs/s, for the load chart; null without one. */
    public ObjectProperty<ForecastBand> loadBandProperty() { return loadBand; }
    /**
     * The forecast's slots (the joint forecast of arrivals × service, each past day's pair, / target utilization; the
     * arrivals' quantile × the service time's median where there is none), for the capacity chart; null without one.
     */
    public ObjectProperty<ForecastBand> capacityBandProperty() { return capacityBand; }

    /** Where the forecasts and the week's progress are read (the session's); none until set. */
    public void setForecasts(ClassForecasts forecasts, Supplier<String> historyWords) {
        this.forecasts = forecasts == null ? ClassForecasts.NONE : forecasts;
        this.historyWords = historyWords == null ? () -> "" : historyWords;
    }

    /** Reads the class's latest forecasts again (each tick, and when another class is shown). */
    void refresh(String className) {
        history.set(historyWords.get());
        ClassSnapshot s = className == null || className.isEmpty() ? null : latest.apply(className);
        Policy p = s == null ? null : s.cls().policy();
        mode.set(p == null ? "" : modeWords(p.forecastMode()));
        Forecast a = s == null ? null : forecasts.arrivals(className);
        Forecast sv = s == null ? null : forecasts.service(className);
        Forecast work = s == null ? null : forecasts.work(className);
        if (a == null) {
            words.set(s == null ? "" : p.forecastMode() == ForecastMode.OFF ? "no forecast: forecasts are off for "
                    + "this class" : "no forecast yet: it is made once the history is read");
            service.set("");
            setBands(null, null, null, null, s);
            return;
        }
        words.set(a.available() ? a.reason() : noForecast(a.reason()));
        service.set(!a.available() || sv == null ? "" : "service time: " + (sv.available() ? sv.reason()
                : noForecast(sv.reason())));
        setBands(a.available() ? a : null, sv, work, p, s);
    }

    private static String noForecast(String reason) {
        return reason.startsWith("no forecast") ? reason : "no forecast: " + reason;
    }

    static String modeWords(ForecastMode m) {
        return switch (m) {
            case OFF -> "off";
            case FORECAST_ONLY -> "forecast only · drawn and explained, never acts";
            case PROPOSE -> "propose · a proposal to hold the forecast's slots ahead of a rise";
            case AUTO -> "auto · the forecast's slots held ahead of a rise without asking";
        };
    }

    private void setBands(Forecast a, Forecast sv, Forecast work, Policy p, ClassSnapshot s) {
        available.set(a != null);
        if (a == shownArrivals && sv == shownService && work == shownWork && (a == null || sameCapacity(s))) {
            return;
        }
        shownArrivals = a;
        shownService = sv;
        shownWork = work;
        shownFor = s;
        if (a == null) {
            loadBand.set(null);
            capacityBand.set(null);
            return;
        }
        double[] times = new double[a.slots()];
        for (int i = 0; i < times.length; i++) {
            times[i] = a.time(i);
        }
        double madeAt = a.start();
        loadBand.set(new ForecastBand("forecast arrivals: p50, p80–p95", a.slotSeconds(), times, a.p50(), a.p80(),
                a.p95(), madeAt));
        double u = p.targetUtilization();
        io.headroom.forecast.SlotsBand slots = io.headroom.forecast.SlotsBand.of(a, sv, shownWork,
                observedService(s), u);
        boolean any = false;
        for (int i = 0; i < times.length; i++) {
            any |= !Double.isNaN(slots.p50()[i]);
        }
        capacityBand.set(any ? new ForecastBand(String.format(Locale.ROOT, slots.anyJoint()
                ? "forecast slots (each past day's arrivals × service / u %.2f): p50, p80–p95"
                : "forecast slots (arrivals × service / u %.2f): p50, p80–p95", u), a.slotSeconds(), times,
                slots.p50(), slots.p80(), slots.p95(), madeAt) : null);
    }

    /** The capacity band depends on the policy's u and the observed service only while no service forecast exists. */
    private boolean sameCapacity(ClassSnapshot s) {
        return shownFor != null && s != null && shownFor.cls().policy().targetUtilization()
                == s.cls().policy().targetUtilization() && (shownService != null && shownService.available()
                || observedService(shownFor) == observedService(s));
    }

    private static double observedService(ClassSnapshot s) {
        Decision d = s == null ? null : s.decision();
        InputStatus in = d == null ? null : d.input(Signals.MEAN_SERVICE);
        return in != null && in.usable() ? in.value() : Double.NaN;
    }
}
