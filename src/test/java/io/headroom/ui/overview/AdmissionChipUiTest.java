package io.headroom.ui.overview;

import static io.headroom.ui.ConsoleWindow.onFx;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.AdmissionVerdict.State;
import io.headroom.sandbox.SandboxCatalog;
import io.headroom.supervise.ClassAdmission;
import io.headroom.supervise.Mode;
import io.headroom.ui.SandboxConsole;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Issue 30: the overview shows each class's admission as a chip in its row. During intake-api's burst in the
 * sandbox (its producers obey) the row shows ADMISSION THROTTLE at the rate decided; other rows show none.
 */
class AdmissionChipUiTest {
    static final String CLS = SandboxCatalog.ADMISSION_CLASS;
    OverviewWindow window;

    @AfterEach
    void close() throws Exception {
        if (window != null) {
            window.close();
        }
    }

    @Test
    void theRowShowsThrottleDuringTheSandboxBurst() throws Exception {
        try (SandboxConsole c = SandboxConsole.openWithAdmission(7).supervised()) {
            c.session().supervisor().setMode(CLS, Mode.AUTO).get(10, TimeUnit.SECONDS);
            c.run(Duration.ofSeconds(195));
            assertTrue(c.runUntil(() -> {
                ClassAdmission a = c.session().supervisor().admission(CLS);
                return a != null && a.decided().state() == State.THROTTLE;
            }, Duration.ofSeconds(90)), "admission throttles during the burst");
            String rate = io.headroom.decision.Figures.fmt(c.session().supervisor().admission(CLS).decided().rate());
            window = OverviewWindow.show(c.overview, 1400, 500, 1);
            OverviewView[] view = {window.view};
            WaitForAsyncUtils.waitFor(20, TimeUnit.SECONDS, () -> onFx(() -> view[0].drawn(CLS).stream()
                    .anyMatch(d -> d.chips().contains("ADMISSION THROTTLE " + rate + "/s"))));
            List<String> tip = onFx(() -> view[0].drawn(CLS).stream().filter(d -> d.chips().stream()
                    .anyMatch(s -> s.startsWith("ADMISSION"))).map(d -> d.tip()).toList());
            assertTrue(tip.get(0).contains("throttled to " + rate + "/s"), tip.get(0));
            assertFalse(onFx(() -> view[0].drawn("payments-steady").stream()
                    .anyMatch(d -> d.chips().stream().anyMatch(s -> s.startsWith("ADMISSION THROTTLE")))),
                    "a class that does not publish shows no admission chip");
        }
    }
}
