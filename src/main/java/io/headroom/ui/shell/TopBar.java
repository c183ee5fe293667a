package io.headroom.ui.shell;

import io.headroom.ui.Styles;
import java.util.List;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.StringProperty;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ToggleButton;
import javafx.scene.control.ToggleGroup;
import javafx.scene.control.Tooltip;
import javafx.scene.image.Image;
import javafx.scene.image.ImageView;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.shape.Circle;

/** The always-visible top bar: context, connection health, data freshness, sandbox speed, theme. */
public final class TopBar extends HBox {
    public static final String FRESHNESS_ID = "freshness";
    public static final String CONTEXT_ID = "context";

    public TopBar(MainViewModel vm) {
        getStyleClass().add(Styles.TOP_BAR);

        Label word = new Label("Headroom");
        word.getStyleClass().add(Styles.WORDMARK);
        var iconUrl = TopBar.class.getResource("/icons/headroom-32.png");
        if (iconUrl != null) {
            ImageView icon = new ImageView(new Image(iconUrl.toExternalForm(), 20, 20, true, true));
            word.setGraphic(icon);
        }

        Label context = new Label();
        context.setId(CONTEXT_ID);
        context.textProperty().bind(vm.contextProperty());
        context.getStyleClass().add(Styles.FIELD_VALUE);
        Label simulated = new Label("SIMULATED");
        simulated.getStyleClass().addAll(Styles.CHIP, Styles.INFO);
        simulated.visibleProperty().bind(vm.sandboxProperty());
        simulated.managedProperty().bind(vm.sandboxProperty());
        simulated.setTooltip(new Tooltip("The built-in sandbox: a deterministic simulated cluster and queues."
                + "\nNothing here touches a real cluster."));
        HBox contextBox = new HBox(6, field("Context"), context, simulated);
        contextBox.getStyleClass().add(Styles.HEALTH);

        HBox cluster = health("Cluster", vm.clusterHealthProperty(), vm.clusterDetailProperty(), null);
        HBox metrics = health("Metrics", vm.metricsHealthProperty(), vm.metricsDetailProperty(),
                vm.metricsSourceProperty());
        Label fresh = new Label();
        fresh.setId(FRESHNESS_ID);
        fresh.textProperty().bind(vm.freshnessProperty());
        fresh.getStyleClass().addAll(Styles.FIELD_VALUE, Styles.NUMERIC);
        HBox freshness = new HBox(5, dot(vm.freshnessHealthProperty()), field("Last tick"), fresh);
        freshness.getStyleClass().add(Styles.HEALTH);

        Region spacer = new Region();
        HBox.setHgrow(spacer, Priority.ALWAYS);

        HBox speed = speedSelector(vm);
        speed.visibleProperty().bind(vm.sandboxProperty());
        speed.managedProperty().bind(vm.sandboxProperty());

        Label time = new Label();
        time.textProperty().bind(vm.sessionTimeProperty());
        time.getStyleClass().addAll(Styles.NUMERIC, Styles.MUTED);

        Button theme = new Button();
        theme.textProperty().bind(javafx.beans.binding.Bindings.when(vm.darkThemeProperty())
                .then("Light theme").otherwise("Dark theme"));
        theme.setOnAction(e -> vm.toggleTheme());
        theme.setFocusTraversable(false);

        getChildren().addAll(word, separator(), contextBox, separator(), cluster, metrics, freshness, spacer, speed,
                time, theme);
    }

    private static HBox speedSelector(MainViewModel vm) {
        ToggleGroup group = new ToggleGroup();
        HBox box = new HBox(2);
        box.getStyleClass().addAll(Styles.SPEED, Styles.HEALTH);
        box.getChildren().add(field("Sandbox speed"));
        for (double s : List.of(1.0, 10.0, 60.0)) {
            ToggleButton b = new ToggleButton((int) s + "×");
            b.setToggleGroup(group);
            b.setUserData(s);
            b.setSelected(vm.speedProperty().get() == s);
            b.setFocusTraversable(false);
            box.getChildren().add(b);
        }
        group.selectedToggleProperty().addListener((obs, old, sel) -> {
            if (sel == null) {
                old.setSelected(true); // one speed is always chosen
            } else {
                vm.setSpeed((Double) sel.getUserData());
            }
        });
        vm.speedProperty().addListener((obs, old, s) -> group.getToggles().forEach(t -> {
            if (((Double) t.getUserData()) == s.doubleValue()) {
                t.setSelected(true);
            }
        }));
        return box;
    }

    private static HBox health(String name, ObjectProperty<MainViewModel.Health> health, StringProperty detail,
                               StringProperty value) {
        HBox box = new HBox(5, dot(health), field(name));
        if (value != null) {
            Label v = new Label();
            v.textProperty().bind(value);
            v.getStyleClass().add(Styles.FIELD_VALUE);
            box.getChildren().add(v);
        }
        box.getStyleClass().add(Styles.HEALTH);
        Tooltip tip = new Tooltip();
        tip.textProperty().bind(detail);
        Tooltip.install(box, tip);
        return box;
    }

    private static Circle dot(ObjectProperty<MainViewModel.Health> health) {
        Circle c = new Circle(4.5);
        c.getStyleClass().add(Styles.HEALTH_DOT);
        Runnable update = () -> Styles.toggle(c, List.of(Styles.OK, Styles.WARN, Styles.DANGER),
                switch (health.get()) {
                    case OK -> Styles.OK;
                    case DEGRADED -> Styles.WARN;
                    case DOWN -> Styles.DANGER;
                    case UNKNOWN -> null;
                });
        health.addListener((o, a, b) -> update.run());
        update.run();
        return c;
    }

    private static Label field(String text) {
        Label l = new Label(text);
        l.getStyleClass().add(Styles.FIELD_LABEL);
        return l;
    }

    private static Region separator() {
        Region r = new VBox();
        r.getStyleClass().add(Styles.SEPARATOR_V);
        return r;
    }
}
