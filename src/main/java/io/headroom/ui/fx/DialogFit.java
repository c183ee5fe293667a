package io.headroom.ui.fx;

import javafx.geometry.Rectangle2D;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.stage.Window;

/**
 * Keeps a dialog, buttons included, inside the console's window (issue 28: at 1280×800, and 2560×1600 at 2×,
 * the Connecting dialog grew past the screen's bottom edge, its Quit out of sight). The area is the owner
 * window where it is a usable size, else the screen the owner (or the dialog) is on; the dialog is made no
 * larger than that area and moved inside it. Its content must scroll (or wrap) when it is capped, so the
 * buttons under it stay in view. FX thread.
 */
public final class DialogFit {
    /** An owner smaller than this is no frame for a dialog: the screen is. */
    static final double MIN_OWNER_WIDTH = 640;
    static final double MIN_OWNER_HEIGHT = 400;

    private DialogFit() {
    }

    /** The area {@code dialog} must lie in. */
    public static Rectangle2D area(Stage dialog) {
        Window owner = dialog.getOwner();
        Window on = owner != null && owner.isShowing() ? owner : dialog;
        Rectangle2D screen = Screen.getScreensForRectangle(on.getX(), on.getY(), Math.max(1, on.getWidth()),
                Math.max(1, on.getHeight())).stream().findFirst().orElse(Screen.getPrimary()).getVisualBounds();
        if (owner == null || !owner.isShowing() || owner.getWidth() < MIN_OWNER_WIDTH
                || owner.getHeight() < MIN_OWNER_HEIGHT) {
            return screen;
        }
        double x0 = Math.max(screen.getMinX(), owner.getX());
        double y0 = Math.max(screen.getMinY(), owner.getY());
        double x1 = Math.min(screen.getMaxX(), owner.getX() + owner.getWidth());
        double y1 = Math.min(screen.getMaxY(), owner.getY() + owner.getHeight());
        return x1 - x0 < MIN_OWNER_WIDTH || y1 - y0 < MIN_OWNER_HEIGHT ? screen
                : new Rectangle2D(x0, y0, x1 - x0, y1 - y0);
    }

    /** Caps {@code dialog}'s size to its {@link #area} and moves it inside; now (it must be showing). */
    public static void fit(Stage dialog) {
        if (!dialog.isShowing()) {
            return;
        }
        Rectangle2D a = area(dialog);
        if (dialog.getWidth() > a.getWidth()) {
            dialog.setWidth(a.getWidth());
        }
        if (dialog.getHeight() > a.getHeight()) {
            dialog.setHeight(a.getHeight());
        }
        double x = Math.min(Math.max(dialog.getX(), a.getMinX()), a.getMaxX() - dialog.getWidth());
        double y = Math.min(Math.max(dialog.getY(), a.getMinY()), a.getMaxY() - dialog.getHeight());
        if (x != dialog.getX()) {
            dialog.setX(x);
        }
        if (y != dialog.getY()) {
            dialog.setY(y);
        }
    }

    private static void detach(Window owner, javafx.beans.value.ChangeListener<Number> moved) {
        owner.xProperty().removeListener(moved);
        owner.yProperty().removeListener(moved);
        owner.widthProperty().removeListener(moved);
        owner.heightProperty().removeListener(moved);
    }

    /** {@link #fit} when {@code dialog} shows and whenever it grows or moves later (a status of several lines). */
    public static void keepInside(Stage dialog) {
        Runnable again = () -> FxExecutor.nextTurn(() -> fit(dialog));
        dialog.showingProperty().addListener((o, was, is) -> {
            if (is) {
                fit(dialog);
                again.run(); // once more after the first layout sized it
            }
        });
        dialog.heightProperty().addListener((o, a, b) -> again.run());
        dialog.widthProperty().addListener((o, a, b) -> again.run());
        Window owner = dialog.getOwner();
        if (owner != null) { // the console resized or moved: the dialog follows, inside it
            javafx.beans.value.ChangeListener<Number> moved = (o, a, b) -> {
                if (dialog.isShowing()) {
                    again.run();
                }
            };
            owner.xProperty().addListener(moved);
            owner.yProperty().addListener(moved);
            owner.widthProperty().addListener(moved);
            owner.heightProperty().addListener(moved);
            dialog.addEventHandler(javafx.stage.WindowEvent.WINDOW_HIDDEN, e -> detach(owner, moved));
        }
        if (dialog.isShowing()) {
            fit(dialog);
        }
    }
}
