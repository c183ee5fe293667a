package io.headroom.ui.supervise;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.AdmissionPolicy;
import io.headroom.journal.MemoryJournal;
import io.headroom.session.Session;
import io.headroom.ui.ConsoleWindow;
import io.headroom.ui.detail.DetailView;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.scene.Node;
import javafx.scene.control.Labeled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.api.FxRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 30: the class detail said a class's admission twice, the decision's old advice chip ("ADMISSION OPEN")
 * above the admission panel's ("ADMISSION THROTTLE · nothing published", "PUBLISHED …"), which may disagree. A
 * class that publishes admission says it in the panel alone; a class that does not keeps the advice.
 */
class AdmissionSaidOnceUiTest {
    static final String PUBLISHES = "search-interactive";
    static final String ADVISED = "payments-steady";
    final FxRobot robot = new FxRobot();
    ConsoleWindow console;

    @AfterEach
    void close() throws Exception {
        if (console != null) {
            console.close();
        }
    }

    /** The admission chips the detail shows now (visible, with every parent visible). */
    List<String> chipsShown() throws Exception {
        return onFx(() -> robot.lookup(n -> n instanceof Labeled l && l.getText() != null
                && (l.getText().startsWith("ADMISSION") || l.getText().startsWith("PUBLISHED")) && ConsoleWindow.shown(n)
                && inDetail(n)).queryAllAs(Labeled.class).stream().map(Labeled::getText).toList());
    }


    static boolean inDetail(Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (p instanceof DetailView) {
                return true;
            }
        }
        return false;
    }

    void select(String cls) throws Exception {
        WaitForAsyncUtils.waitFor(60, TimeUnit.SECONDS, () -> onFx(() -> console.view().overviewViewModel().rows()
                .stream().anyMatch(r -> r.name().equals(cls))));
        onFx(() -> {
            console.view().overviewViewModel().select(cls);
            return null;
        });
    }

    @Test
    void aClassThatPublishesSaysItsAdmissionInThePanelAloneTheOthersKeepTheAdvice() throws Exception {
        Session session = Session.sandbox(5, Instant.now(), Duration.ofMinutes(2), new MemoryJournal());
        session.supervisor().setAdmissionPolicies(Map.of(PUBLISHES, AdmissionPolicy.onMissing(true, "conservative")));
        session.warmUp(Duration.ofMinutes(2));
        console = ConsoleWindow.open(session);

        select(PUBLISHES);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> onFx(() -> robot.lookup("#" + AdmissionPanel.CHIP_ID)
                .query().getParent().getParent().isVisible() && ConsoleWindow.shown(robot.lookup("#" + AdmissionPanel.CHIP_ID).query())));
        List<String> chips = chipsShown();
        assertEquals(1, chips.size(), "one place says the admission: " + chips);
        assertEquals(onFx(() -> robot.lookup("#" + AdmissionPanel.CHIP_ID).queryLabeled().getText()), chips.get(0));

        select(ADVISED);
        WaitForAsyncUtils.waitFor(30, TimeUnit.SECONDS, () -> !ConsoleWindow.shown(onFx(() -> robot.lookup("#" + AdmissionPanel.CHIP_ID)
                .query())) && !chipsShown().isEmpty());
        chips = chipsShown();
        assertEquals(1, chips.size(), chips.toString());
        assertTrue(chips.get(0).startsWith("ADMISSION "), "the decision's advice stays for a class that does not publish: "
                + chips);
    }
}
