package io.headroom.ui.shell;

import io.headroom.supervise.SupervisionState;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.BooleanBinding;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The incident banner's state: every standing freeze, pin, drain and auto mode, worst first, one
 * line each with who, why and the countdown; collapsed it shows the worst and how many more.
 * It also notices when one ends, and whether it ran out by itself (expired) or was lifted.
 * FX thread only; holds no nodes.
 */
public final class IncidentBannerViewModel {
    static final DateTimeFormatter HHMMSS = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

    /** What changed between two snapshots. */
    public record Change(Instant at, List<Incident> started, List<Incident> ended) {
        /** The ended incidents that ran out by themselves (a freeze or an override reaching its end). */
        public List<Incident> expired() {
            return ended.stream().filter(i -> i.expiredAt(at)).toList();
        }
    }

    // Properties
    private final ObservableList<Incident> incidents = FXCollections.observableArrayList();
    private final ObjectProperty<Instant> now = new SimpleObjectProperty<>(Instant.EPOCH);
    private final BooleanProperty expanded = new SimpleBooleanProperty();
    private final StringProperty more = new SimpleStringProperty("");
    private final BooleanBinding showing = Bindings.isNotEmpty(incidents);

    private Map<String, Incident> last = new LinkedHashMap<>();
    private boolean first = true;
    private Consumer<Change> onChange = c -> { };

    public IncidentBannerViewModel() {
        incidents.addListener((javafx.collections.ListChangeListener<Incident>) c -> updateMore());
        expanded.addListener((o, a, b) -> updateMore());
    }

    /** Worst first. */
    public ObservableList<Incident> incidents() { return incidents; }
    /** The time the countdowns count from (the session's clock). */
    public ObjectProperty<Instant> nowProperty() { return now; }
    /** True when every incident has its own line; false shows the worst and a count. */
    public BooleanProperty expandedProperty() { return expanded; }
    /** "+2 more" when collapsed with more than one, "show less" when expanded, else empty. */
    public StringProperty moreProperty() { return more; }
    /** True while anything stands: the banner is shown. */
    public BooleanBinding showingProperty() { return showing; }

    /** Called with what started and ended at each snapshot (not the first: what stands at start is not news). */
    public void setOnChange(Consumer<Change> handler) {
        this.onChange = handler;
    }

    /** How many lines the banner shows now. */
    public int visibleLines() {
        return expanded.get() ? incidents.size() : Math.min(1, incidents.size());
    }

    /** The text of one incident's line at the current time. */
    public String line(Incident i) {
        return i.line(now.get(), HHMMSS::format);
    }

    // Commands

    /** Applies a supervision snapshot, timed by its own clock reading. */
    public void apply(SupervisionState s) {
        if (s.at() != null && s.at().isAfter(now.get())) {
            now.set(s.at());
        }
        List<Incident> next = Incident.of(s);
        Map<String, Incident> byKey = new LinkedHashMap<>();
        next.forEach(i -> byKey.put(i.key(), i));
        List<Incident> started = new ArrayList<>();
        List<Incident> ended = new ArrayList<>();
        byKey.forEach((k, i) -> {
            if (!last.containsKey(k)) {
                started.add(i);
            }
        });
        last.forEach((k, i) -> {
            if (!byKey.containsKey(k)) {
                ended.add(i);
            }
        });
        last = byKey;
        if (!next.equals(incidents)) {
            incidents.setAll(next);
        }
        if (incidents.size() <= 1) {
            expanded.set(false);
        }
        boolean announce = !first;
        first = false;
        if (announce && (!started.isEmpty() || !ended.isEmpty())) {
            onChange.accept(new Change(s.at() == null ? now.get() : s.at(), List.copyOf(started), List.copyOf(ended)));
        }
    }

    /** Moves the countdowns on (about twice a second). */
    public void tick(Instant at) {
        now.set(at);
    }

    public void toggleExpanded() {
        if (incidents.size() > 1) {
            expanded.set(!expanded.get());
        }
    }

    private void updateMore() {
        int n = incidents.size();
        more.set(n <= 1 ? "" : expanded.get() ? "show less" : "+" + (n - 1) + " more");
    }
}
