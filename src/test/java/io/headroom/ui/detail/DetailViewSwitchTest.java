package io.headroom.ui.detail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.headroom.loop.TickResult;
import io.headroom.ui.chart.ChartSeries;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import javafx.scene.Scene;
import javafx.stage.Stage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** Switching class points every chart at the new class's series and objective. */
@ExtendWith(ApplicationExtension.class)
class DetailViewSwitchTest {
    private DetailViewModel vm;
    private DetailView view;

    @Start
    void start(Stage stage) {
        vm = new DetailViewModel(Clock.fixed(DetailWorkStripTest.T0, ZoneOffset.UTC), Runnable::run);
        view = new DetailView(vm, Clock.fixed(DetailWorkStripTest.T0, ZoneOffset.UTC));
        stage.setScene(new Scene(view, 1280, 700));
        stage.show();
    }

    @Test
    void switchingClassRebuildsTheChartsForIt() throws Exception {
        fx(() -> {
            vm.apply(List.of(new TickResult(DetailWorkStripTest.T0, List.of(DetailWorkStripTest.snapshot("a", 6, 4, 90),
                    DetailWorkStripTest.snapshot("b", 3, 3, 0)), "dev", "test")));
            return null;
        });
        fx(() -> {
            vm.select("b");
            return null;
        });
        ChartSeries age = fx(() -> view.charts().get(0).getSeries().get(0));
        assertSame(vm.series("b").oldestAge, age.getBuffer(), "the age chart shows b");
    }

    private static <T> T fx(Callable<T> action) throws Exception {
        return WaitForAsyncUtils.asyncFx(action).get(5, TimeUnit.SECONDS);
    }
}
