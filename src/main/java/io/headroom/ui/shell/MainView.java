package io.headroom.ui.shell;

import io.headroom.loop.TickResult;
import io.headroom.session.Session;
import io.headroom.ui.Styles;
import io.headroom.ui.detail.DetailView;
import io.headroom.ui.detail.DetailViewModel;
import io.headroom.ui.fx.PulseBatcher;
import io.headroom.ui.overview.OverviewView;
import io.headroom.ui.overview.OverviewViewModel;
import java.util.List;
import java.util.function.Consumer;
import javafx.animation.KeyFrame;
import javafx.animation.Timeline;
import javafx.geometry.Orientation;
import javafx.scene.control.SplitPane;
import javafx.scene.layout.BorderPane;
import javafx.util.Duration;

/**
 * The console window's content: top bar, overview and class detail, wired to one session. Ticks
 * arrive on the loop's thread and reach the view models once per frame through a {@link PulseBatcher}.
 */
public final class MainView extends BorderPane {
    private final MainViewModel main;
    private final OverviewViewModel overview = new OverviewViewModel();
    private final DetailViewModel detail = new DetailViewModel();
    private final OverviewView overviewView;
    private final PulseBatcher<TickResult> batcher;
    private final Timeline clock;
    private final Session session;
    private final Consumer<TickResult> listener;

    public MainView(Session session) {
        this.session = session;
        this.main = new MainViewModel(session.loop().cluster().contextName(), session.loop().metrics().name(),
                session.isSandbox(), session.tick(), session::setSpeed);
        getStyleClass().add(Styles.THEME_DARK);
        main.speedProperty().set(session.speed());

        overviewView = new OverviewView(overview);
        DetailView detailView = new DetailView(detail, session.clock());
        SplitPane split = new SplitPane(overviewView, detailView);
        split.setOrientation(Orientation.VERTICAL);
        split.setDividerPositions(0.30);
        SplitPane.setResizableWithParent(overviewView, false);
        setTop(new TopBar(main));
        setCenter(split);

        overview.selectedProperty().addListener((obs, old, row) -> {
            if (row != null) {
                detail.select(row.name());
            }
        });
        main.darkThemeProperty().addListener((obs, old, dark) -> {
            Styles.toggle(this, List.of(Styles.THEME_DARK, Styles.THEME_LIGHT),
                    dark ? Styles.THEME_DARK : Styles.THEME_LIGHT);
            detailView.setDarkTheme(dark);
        });

        batcher = new PulseBatcher<>(this::applyBatch);
        listener = batcher::offer;
        session.loop().addListener(listener);
        batcher.start();
        clock = new Timeline(new KeyFrame(Duration.millis(500), e -> main.updateClock(session.clock().instant())));
        clock.setCycleCount(Timeline.INDEFINITE);
        clock.play();
    }

    private void applyBatch(List<TickResult> batch) {
        TickResult last = batch.get(batch.size() - 1);
        overview.apply(last);
        detail.apply(batch);
        main.apply(last);
        main.updateClock(session.clock().instant());
    }

    public MainViewModel viewModel() {
        return main;
    }

    public OverviewViewModel overviewViewModel() {
        return overview;
    }

    public DetailViewModel detailViewModel() {
        return detail;
    }

    /** Stops listening and animating; the session itself is closed by its owner. */
    public void dispose() {
        session.loop().removeListener(listener);
        batcher.stop();
        clock.stop();
    }
}
