package io.headroom.ui.overview;

import io.headroom.ui.Format;
import java.util.ArrayList;
import java.util.List;
import javafx.beans.InvalidationListener;
import javafx.beans.WeakInvalidationListener;
import javafx.geometry.VPos;
import javafx.scene.AccessibleAttribute;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.SkinBase;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.text.TextAlignment;

/**
 * One row of the overview, drawn on one canvas: no node per cell. A reorder hands every visible
 * row another class each tick; a row of cells (a dozen controls, chips, a sparkline canvas, bar
 * regions) then restyled and laid out its cells, while this row draws its class in a few dozen
 * canvas commands. What it draws follows its class's {@link ClassRow#revisionProperty()} (one
 * listener, not one per value), the columns (their order, widths, which show) and the look
 * ({@link RowLook}: fonts and colours from the stylesheet). The row's own background, border and
 * states (hover, selected, focused) are still the stylesheet's, on the row.
 *
 * <p>{@link #cells()} says what was drawn, cell by cell, as text: what the tooltip shows where the
 * pointer is, what assistive technology reads, and what tests check.
 */
final class CanvasRow extends TableRow<ClassRow> {

    /**
     * What one cell shows: its column's title, where it is, the text drawn and the whole text, its
     * chips, and its tooltip (made when asked for: most cells are drawn many times for each hover).
     */
    record Cell(String column, double x, double width, String text, String whole, List<String> chips, int hidden,
                java.util.function.Supplier<String> tips) {
        String tip() {
            return tips.get();
        }
    }

    private static final java.util.function.Supplier<String> NO_TIP = () -> "";

    /** The sparkline's size in a trend cell. */
    static final double SPARK_W = 40;
    /** The narrowest the sparkline gets when the figure beside it needs the room ("⚑ 12.5×" at 96 px). */
    static final double SPARK_MIN_W = 20;
    static final double SPARK_H = 18;
    private static final double SPARK_GAP = 4;
    /** The work bar: at most this wide, this tall. */
    static final double BAR_W = 60;
    static final double BAR_H = 10;

    private final RowLook look;
    private final Canvas canvas = new Canvas();
    private final Tooltip tip = new Tooltip();
    private final InvalidationListener changed = o -> dirty();
    private final WeakInvalidationListener weakChanged = new WeakInvalidationListener(changed);
    private ClassRow following;
    private boolean stale = true;
    private List<Cell> cells = List.of();
    /** Where the pointer is on the row (NaN: not on it): its tooltip follows that cell as the row is drawn anew. */
    private double pointer = Double.NaN;

    CanvasRow(RowLook look, javafx.beans.Observable columnsChanged) {
        this.look = look;
        look.revisionProperty().addListener(weakChanged);
        columnsChanged.addListener(weakChanged);
        canvas.setManaged(false);
        canvas.setMouseTransparent(true);
        addEventHandler(MouseEvent.MOUSE_PRESSED, this::pressed);
        addEventHandler(MouseEvent.MOUSE_MOVED, e -> tipAt(pointer = e.getX()));
        addEventHandler(MouseEvent.MOUSE_ENTERED, e -> tipAt(pointer = e.getX()));
        addEventHandler(MouseEvent.MOUSE_EXITED, e -> pointer = Double.NaN);
    }

    @Override
    protected javafx.scene.control.Skin<?> createDefaultSkin() {
        return new Skin(this);
    }

    @Override
    protected void updateItem(ClassRow item, boolean empty) {
        super.updateItem(item, empty);
        ClassRow row = empty ? null : item;
        if (row != following) {
            if (following != null) {
                following.revisionProperty().removeListener(changed);
            }
            following = row;
            if (row != null) {
                row.revisionProperty().addListener(changed);
            }
        }
        dirty();
    }

    private void dirty() {
        if (!stale) {
            stale = true;
            requestLayout(); // drawn in this row's layout, once, however many changes came before
        }
    }

    /** What the row drew last, cell by cell (empty while it shows no class). */
    List<Cell> cells() {
        return cells;
    }

    /** A press selects and focuses the row (the stock row's cells did this; this row has none). */
    private void pressed(MouseEvent e) {
        TableView<ClassRow> t = getTableView();
        if (t == null || isEmpty() || getIndex() < 0 || getIndex() >= t.getItems().size()
                || (e.getButton() != MouseButton.PRIMARY && e.getButton() != MouseButton.SECONDARY)) {
            return;
        }
        if (t.isFocusTraversable() && !t.isFocused()) {
            t.requestFocus();
        }
        if (e.getButton() == MouseButton.SECONDARY && isSelected()) {
            return; // a context click keeps the selection
        }
        if (e.isShortcutDown() && t.getSelectionModel().isSelected(getIndex())) {
            t.getSelectionModel().clearSelection(getIndex());
        } else {
            t.getSelectionModel().clearAndSelect(getIndex());
        }
        t.getFocusModel().focus(getIndex());
    }

    /** The tooltip says the whole of the cell under the pointer. */
    private void tipAt(double x) {
        String text = "";
        for (Cell c : cells) {
            if (x >= c.x() && x < c.x() + c.width()) {
                text = c.tip();
            }
        }
        if (text.isEmpty()) {
            if (getTooltip() != null) {
                setTooltip(null);
            }
            return;
        }
        if (!text.equals(tip.getText())) {
            tip.setText(text);
        }
        if (getTooltip() != tip) {
            setTooltip(tip);
        }
    }

    @Override
    public Object queryAccessibleAttribute(AccessibleAttribute attribute, Object... parameters) {
        if (attribute == AccessibleAttribute.TEXT) {
            StringBuilder b = new StringBuilder();
            for (Cell c : cells) {
                if (!c.tip().isEmpty()) {
                    b.append(b.length() == 0 ? "" : ", ").append(c.column()).append(' ').append(c.tip());
                }
            }
            return b.toString();
        }
        return super.queryAccessibleAttribute(attribute, parameters);
    }

    /** Holds the canvas; draws it in its layout when something it shows changed or its size did. */
    private static final class Skin extends SkinBase<CanvasRow> {
        Skin(CanvasRow row) {
            super(row);
            getChildren().add(row.canvas);
        }

        @Override
        protected void layoutChildren(double x, double y, double w, double h) {
            CanvasRow row = getSkinnable();
            double width = Math.max(0, row.getWidth());
            double height = Math.max(0, row.getHeight());
            if (row.canvas.getWidth() != width || row.canvas.getHeight() != height) {
                row.canvas.setWidth(width);
                row.canvas.setHeight(height);
                row.stale = true;
            }
            if (row.stale) {
                row.stale = false;
                row.paint();
            }
        }

        @Override
        protected double computePrefWidth(double height, double top, double right, double bottom, double left) {
            double w = 0;
            TableView<ClassRow> t = getSkinnable().getTableView();
            if (t != null) {
                for (TableColumn<ClassRow, ?> c : t.getVisibleLeafColumns()) {
                    w += c.getWidth();
                }
            }
            return w + left + right;
        }
    }

    // Drawing

    private void paint() {
        GraphicsContext g = canvas.getGraphicsContext2D();
        g.clearRect(0, 0, canvas.getWidth(), canvas.getHeight());
        ClassRow r = following;
        TableView<ClassRow> t = getTableView();
        if (r == null || t == null || isEmpty()) {
            cells = List.of();
            if (getTooltip() != null) {
                setTooltip(null);
            }
            return;
        }
        double h = canvas.getHeight();
        boolean ceilingShown = false;
        for (TableColumn<ClassRow, ?> c : t.getVisibleLeafColumns()) {
            ceilingShown |= c.getUserData() == OverviewViewModel.Column.CEILING;
        }
        List<Cell> out = new ArrayList<>(12);
        double x = snappedLeftInset();
        g.setTextBaseline(VPos.CENTER);
        for (TableColumn<ClassRow, ?> c : t.getVisibleLeafColumns()) {
            double w = c.getWidth();
            if (c.getUserData() instanceof OverviewViewModel.Column column) {
                out.add(paint(g, r, column, c.getText(), x, w, h, ceilingShown));
            }
            x += w;
        }
        cells = List.copyOf(out);
        if (!Double.isNaN(pointer)) {
            tipAt(pointer); // the tooltip says what the cell under the pointer says now
        }
    }

    private Cell paint(GraphicsContext g, ClassRow r, OverviewViewModel.Column column, String title, double x, double w,
                       double h, boolean ceilingShown) {
        return switch (column) {
            case CLASS -> text(g, title, x, w, h, r.name(), RowLook.Kind.NAME, false, null);
            case MODE -> text(g, title, x, w, h, r.modeProperty().get(), RowLook.Kind.TEXT, false, null);
            case CEILING -> text(g, title, x, w, h, r.bindingCeilingProperty().get(), RowLook.Kind.TEXT, false, null);
            case QUEUE -> number(g, title, x, w, h, r.queueLengthProperty().get(), Format.number(r.queueLengthProperty().get()));
            case ARRIVALS -> number(g, title, x, w, h, r.arrivalRateProperty().get(), Format.number(r.arrivalRateProperty().get()));
            case SERVICE -> {
                double v = r.serviceSecondsProperty().get();
                yield number(g, title, x, w, h, v, Double.isNaN(v) ? Format.NO_DATA : Format.number(v) + " s");
            }
            case SLOTS -> {
                int slots = r.estimatedSlotsProperty().get();
                yield number(g, title, x, w, h, slots < 0 ? Double.NaN : slots,
                        slots < 0 ? Format.NO_DATA : Integer.toString(slots));
            }
            case AGE -> {
                double age = r.oldestAgeProperty().get();
                double objective = r.ageObjectiveProperty().get();
                String s = Format.duration(age);
                RowLook.Kind k = Double.isNaN(age) ? RowLook.Kind.NUM_UNKNOWN
                        : !Double.isNaN(objective) && age > objective ? RowLook.Kind.NUM_BREACH : RowLook.Kind.NUM;
                yield text(g, title, x, w, h, s, k, true, Double.isNaN(objective) || Double.isNaN(age) ? null
                        : () -> s + " against a " + Format.duration(objective) + " objective");
            }
            case REPLICAS -> {
                OverviewView.ReplicaValue v = new OverviewView.ReplicaValue(r.currentReplicasProperty().get(),
                        r.desiredReplicasProperty().get(), r.readyReplicasProperty().get(), r.drainToProperty().get());
                String note = r.replicasNoteProperty().get();
                RowLook.Kind k = !v.known() ? RowLook.Kind.NUM_UNKNOWN : v.target() > v.current() ? RowLook.Kind.NUM_UP
                        : v.target() < v.current() ? RowLook.Kind.NUM_DOWN : RowLook.Kind.NUM;
                yield text(g, title, x, w, h, v.text(), k, true, note.isEmpty() ? null : () -> note);
            }
            case TREND -> trend(g, title, x, w, h, r.trendProperty().get());
            case WORK -> work(g, title, x, w, h, r.workProperty().get());
            case ALERTS -> alerts(g, title, x, w, h, r.badgesProperty().get(), ceilingShown);
        };
    }

    private Cell number(GraphicsContext g, String title, double x, double w, double h, double v, String s) {
        return text(g, title, x, w, h, s, Double.isNaN(v) ? RowLook.Kind.NUM_UNKNOWN : RowLook.Kind.NUM, true, null);
    }

    /** A text in its cell's padding, cut with "…" when it does not fit; the tooltip says it whole (or {@code tip}). */
    private Cell text(GraphicsContext g, String title, double x, double w, double h, String whole, RowLook.Kind kind,
                      boolean right, java.util.function.Supplier<String> tip) {
        String s = whole == null ? "" : whole;
        javafx.geometry.Insets pad = look.cellPadding();
        double room = Math.max(0, w - pad.getLeft() - pad.getRight());
        RowLook.Ink ink = look.ink(kind);
        String shown = s.isEmpty() ? s : look.fit(s, ink.font(), room);
        if (!shown.isEmpty()) {
            g.setFont(ink.font());
            g.setFill(ink.fill());
            g.setTextAlign(right ? TextAlignment.RIGHT : TextAlignment.LEFT);
            g.fillText(shown, right ? x + w - pad.getRight() : x + pad.getLeft(), Math.round(h / 2));
        }
        return new Cell(title, x, w, shown, s, List.of(), 0, tip != null ? tip : () -> s);
    }

    /** The last 15 minutes: a sparkline (red above the objective, the objective dashed), then the worst as × objective. */
    private Cell trend(GraphicsContext g, String title, double x, double w, double h, AgeTrend t) {
        if (t == null || t == AgeTrend.NONE) {
            return new Cell(title, x, w, "", "", List.of(), 0, NO_TIP);
        }
        double left = x + look.cellPadding().getLeft();
        double top = Math.round((h - SPARK_H) / 2);
        RowLook.Kind k = t.breachingNow() ? RowLook.Kind.PEAK_BREACH
                : t.firedAndCleared() ? RowLook.Kind.PEAK_CLEARED : RowLook.Kind.PEAK;
        RowLook.Ink ink = look.ink(k);
        String peak = t.peak() == null ? "" : t.peak();
        // The figure is what the operator reads; the line gives way to it, down to SPARK_MIN_W.
        double inner = Math.max(0, x + w - look.cellPadding().getRight() - left);
        double beside = Math.floor(inner - SPARK_GAP - look.width(peak, ink.font()));
        double sparkW = peak.isEmpty() ? SPARK_W : Math.max(SPARK_MIN_W, Math.min(SPARK_W, beside));
        spark(g, t, left, top, sparkW);
        double room = Math.max(0, inner - sparkW - SPARK_GAP);
        String shown = peak.isEmpty() ? peak : look.fit(peak, ink.font(), room);
        if (!shown.isEmpty()) {
            g.setFont(ink.font());
            g.setFill(ink.fill());
            g.setTextAlign(TextAlignment.LEFT);
            g.fillText(shown, left + sparkW + SPARK_GAP, Math.round(h / 2));
        }
        return new Cell(title, x, w, shown, peak, List.of(), 0, t::summary);
    }

    private void spark(GraphicsContext g, AgeTrend t, double x0, double y0, double width) {
        double[] a = t.ages();
        if (a.length == 0) {
            return;
        }
        double obj = t.objective() > 0 ? t.objective() : Double.NaN;
        double top = Double.isNaN(t.peakAge()) ? 1 : t.peakAge();
        if (!Double.isNaN(obj)) {
            top = Math.max(top, obj * 1.25);
        }
        top = Math.max(top, 1e-9);
        double dx = width / a.length;
        if (!Double.isNaN(obj)) {
            double y = y0 + sparkY(obj, top);
            g.setStroke(look.ink(RowLook.Kind.SPARK_GUIDE).fill());
            g.setLineWidth(1);
            g.setLineDashes(2, 2);
            g.strokeLine(x0, y, x0 + width, y);
            g.setLineDashes(null);
        }
        g.setLineWidth(1.5);
        javafx.scene.paint.Paint line = look.ink(RowLook.Kind.SPARK_LINE).fill();
        javafx.scene.paint.Paint over = look.ink(RowLook.Kind.SPARK_OVER).fill();
        // One path per colour run: a stroke per segment would be sixty draw commands per row.
        javafx.scene.paint.Paint current = null;
        boolean open = false;
        for (int i = 1; i < a.length; i++) {
            if (Double.isNaN(a[i - 1]) || Double.isNaN(a[i])) {
                if (open) {
                    g.stroke();
                    open = false;
                }
                continue; // not known then: a gap, never a drop to 0
            }
            javafx.scene.paint.Paint p = !Double.isNaN(obj) && Math.max(a[i - 1], a[i]) > obj ? over : line;
            double xa = x0 + (i - 0.5) * dx;
            double ya = y0 + sparkY(a[i - 1], top);
            if (!open || p != current) {
                if (open) {
                    g.stroke();
                }
                g.setStroke(p);
                g.beginPath();
                g.moveTo(xa, ya);
                current = p;
                open = true;
            }
            g.lineTo(x0 + (i + 0.5) * dx, y0 + sparkY(a[i], top));
        }
        if (open) {
            g.stroke();
        }
    }

    private static double sparkY(double v, double top) {
        return SPARK_H - 1 - (SPARK_H - 2) * Math.min(1, Math.max(0, v / top));
    }

    /** Queued · starting · executing · waiting approval · held back: five segments as wide as their counts, on a track. */
    private Cell work(GraphicsContext g, String title, double x, double w, double h,
                      io.headroom.supervise.JobStates work) {
        if (work == null) {
            return new Cell(title, x, w, "", "", List.of(), 0, NO_TIP);
        }
        double left = x + look.cellPadding().getLeft();
        double width = Math.max(0, Math.min(BAR_W, w - look.cellPadding().getLeft() - look.cellPadding().getRight()));
        double top = Math.round((h - BAR_H) / 2);
        g.setFill(look.track());
        g.fillRoundRect(left, top, width, BAR_H, 4, 4);
        long[] counts = {work.queued(), work.starting(), work.executing(), work.awaitingApproval(), work.heldBack()};
        double total = 0;
        for (long c : counts) {
            total += c;
        }
        double at = 0;
        for (int i = 0; i < counts.length && total > 0; i++) {
            double pw = Math.min(Math.max(counts[i] > 0 ? 2 : 0, width * counts[i] / total), width - at);
            if (pw > 0) {
                g.setFill(look.bar(i));
                g.fillRect(Math.round(left + at), top, Math.round(left + at + pw) - Math.round(left + at), BAR_H);
            }
            at += pw;
        }
        return new Cell(title, x, w, "", "", List.of(), 0, () -> words(work));
    }

    static String words(io.headroom.supervise.JobStates w) {
        return w.queued() + " queued · " + w.starting() + " starting · " + w.executing() + " executing · "
                + w.awaitingApproval() + " waiting approval · " + w.heldBack() + " held back"
                + (w.heldBy() == null ? "" : " by " + w.heldBy()) + w.admissionWords();
    }

    /** A chip to draw: its words and tone. */
    private record Chip(String text, RowLook.Tone tone) {
    }

    /**
     * The states, the proposal and the alerts as chips, left to right, each whole: those that do not
     * fit give way to a "+N" chip (the tooltip names them all), so a narrow column never shows half a
     * word, and a chip too wide for the room leaves it to the narrower ones after it.
     */
    private Cell alerts(GraphicsContext g, String title, double x, double w, double h, ClassRow.Badges v,
                        boolean ceilingShown) {
        if (v == null) {
            return new Cell(title, x, w, "", "", List.of(), 0, NO_TIP);
        }
        List<Chip> all = new ArrayList<>();
        for (ClassRow.StateChip s : v.states()) {
            all.add(new Chip(s.text(), switch (s.state()) {
                case FROZEN -> RowLook.Tone.DANGER;
                case PINNED, POOL_UNAVAILABLE, ADMISSION_CLOSED, ADMISSION -> RowLook.Tone.WARN;
                case DRAINING, AUTO -> RowLook.Tone.INFO;
            }));
        }
        if (!v.proposal().isEmpty()) {
            all.add(new Chip("PROPOSAL " + v.proposal(), RowLook.Tone.INFO));
        }
        for (ClassRow.Alert a : v.alerts()) {
            if (a == ClassRow.Alert.CEILING && ceilingShown) {
                continue; // the Ceiling column says it
            }
            all.add(new Chip(words(a), switch (a) {
                case STALLED, STUCK, TELEMETRY_MISSING, TELEMETRY_STALE, PROBLEM -> RowLook.Tone.DANGER;
                case DEPENDENCY_SATURATED, AGE_BREACH, PARTIAL_DATA -> RowLook.Tone.WARN;
                case CEILING -> RowLook.Tone.INFO;
            }));
        }
        double left = x + look.cellPadding().getLeft();
        double right = x + w - look.cellPadding().getRight();
        double gap = look.chipGap();
        double[] widths = new double[all.size()];
        double need = 0;
        for (int i = 0; i < all.size(); i++) {
            widths[i] = chipWidth(all.get(i).text(), all.get(i).tone());
            need += widths[i] + (i > 0 ? gap : 0);
        }
        boolean[] on = new boolean[all.size()];
        java.util.Arrays.fill(on, true);
        if (left + need > right + 0.5) {
            // Not all fit: the most urgent first (danger, then warn, then info; in their order within a
            // tone), each that fits beside the room for the "+N" of those left out; shown in their order.
            // A chip too wide is left out, not the narrower ones after it, and STALLED is never left out
            // for AGE.
            double more = chipWidth("+" + all.size(), RowLook.Tone.MORE); // as wide as any "+N" here
            Integer[] byUrgency = new Integer[all.size()];
            for (int i = 0; i < byUrgency.length; i++) {
                byUrgency[i] = i;
            }
            java.util.Arrays.sort(byUrgency, java.util.Comparator.comparingInt((Integer i) -> all.get(i).tone().ordinal()));
            double used = 0; // the chips chosen so far, each with the gap after it
            for (int i : byUrgency) {
                on[i] = left + used + widths[i] + gap + more <= right + 0.5;
                if (on[i]) {
                    used += widths[i] + gap;
                }
            }
        }
        List<String> words = new ArrayList<>(all.size());
        double at = left;
        for (int i = 0; i < all.size(); i++) {
            if (on[i]) {
                chip(g, all.get(i).text(), all.get(i).tone(), at, widths[i], h);
                words.add(all.get(i).text());
                at += widths[i] + gap;
            }
        }
        int hidden = all.size() - words.size();
        if (hidden > 0) {
            String more = "+" + hidden;
            chip(g, more, RowLook.Tone.MORE, at, chipWidth(more, RowLook.Tone.MORE), h);
        }
        List<String> every = new ArrayList<>(all.size());
        all.forEach(c -> every.add(c.text()));
        return new Cell(title, x, w, String.join(" ", words), String.join(" ", every), List.copyOf(words), hidden,
                v::fullText);
    }

    static String words(ClassRow.Alert a) {
        return switch (a) {
            case STALLED -> "STALLED";
            case STUCK -> "STUCK";
            case TELEMETRY_MISSING -> "NO DATA";
            case TELEMETRY_STALE -> "STALE DATA";
            case PARTIAL_DATA -> "PARTIAL";
            case DEPENDENCY_SATURATED -> "DEPENDENCY";
            case AGE_BREACH -> "AGE";
            case CEILING -> "CEILING";
            case PROBLEM -> "ERROR";
        };
    }

    private double chipWidth(String text, RowLook.Tone tone) {
        RowLook.ChipInk ink = look.chip(tone);
        return Math.ceil(look.width(text, ink.font()) + ink.padding().getLeft() + ink.padding().getRight());
    }

    private void chip(GraphicsContext g, String text, RowLook.Tone tone, double x, double w, double h) {
        RowLook.ChipInk ink = look.chip(tone);
        double ch = Math.ceil(look.lineHeight(ink.font()) + ink.padding().getTop() + ink.padding().getBottom());
        double top = Math.round((h - ch) / 2);
        double arc = Math.min(ink.radius() * 2, ch);
        g.setFill(ink.background());
        g.fillRoundRect(Math.round(x), top, w, ch, arc, arc);
        g.setFont(ink.font());
        g.setFill(ink.fill());
        g.setTextAlign(TextAlignment.LEFT);
        g.fillText(text, Math.round(x) + ink.padding().getLeft(), top + ch / 2);
    }
}
