package io.headroom.ui.journal;

import io.headroom.cluster.WorkloadRef;
import io.headroom.loop.WorkloadClass;
import io.headroom.session.Session;
import io.headroom.ui.Styles;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import javafx.scene.Scene;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * The journal window of a session: live while it shows (each tick and each change of supervision
 * may have journaled something, so the view reads what was appended), with the cluster's Headroom
 * events beside the journal, re-read at most every {@link #CLUSTER_EVERY}.
 */
public final class JournalWindow {
    /** How often the cluster's events are read again while the window is live. */
    public static final Duration CLUSTER_EVERY = Duration.ofSeconds(15);

    private JournalWindow() {
    }

    /** A new (not yet shown) journal window for {@code session}; {@code theme} is the console's theme class. */
    public static Stage create(Session session, Executor fx, Window owner, String theme) {
        Map<String, WorkloadRef> workloads = new LinkedHashMap<>();
        for (WorkloadClass c : session.loop().classes()) {
            workloads.put(c.name(), c.target());
        }
        JournalViewModel vm = new JournalViewModel(session.journal(), session.journalExport(), session.io(), fx, session.clock())
                .withCluster(session.loop().cluster().events(), workloads, CLUSTER_EVERY, System::nanoTime);
        JournalView view = new JournalView(vm);
        view.getStyleClass().add(theme);
        Stage stage = new Stage();
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle("Headroom journal — " + session.loop().cluster().contextName());
        Scene scene = new Scene(view, 1200, 600);
        Styles.install(scene);
        stage.setScene(scene);
        Runnable[] unsubscribe = {null};
        stage.setOnShown(e -> {
            vm.reload();
            unsubscribe[0] = session.subscribe(tick -> vm.refresh());
        });
        stage.setOnHidden(e -> {
            if (unsubscribe[0] != null) {
                unsubscribe[0].run();
                unsubscribe[0] = null;
            }
        });
        return stage;
    }
}
