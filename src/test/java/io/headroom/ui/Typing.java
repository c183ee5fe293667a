package io.headroom.ui;

import javafx.scene.Scene;
import javafx.scene.input.KeyCode;
import javafx.stage.Window;
import org.testfx.api.FxRobot;
import org.testfx.robot.BaseRobot;
import org.testfx.robot.KeyboardRobot;
import org.testfx.util.WaitForAsyncUtils;

/**
 * Real key events, as TestFX's robot sends them, but waited for once per gesture instead of once per
 * event. TestFX waits for the FX events after every key pressed, every key released and every character
 * typed (each wait is five round trips to the FX thread and 50 ms of sleep), so {@code Ctrl+K} cost four
 * waits and typing "open class search-interactive" 29. The events are posted to the FX thread in order
 * (each through {@code Platform.runLater}), so one wait after the last of them still returns only once
 * every one was dispatched, and whatever they posted in turn ran: what the test reads afterwards is the
 * same.
 */
public final class Typing {
    private Typing() {
    }

    /** Presses {@code chord} in order, releases it in reverse (Ctrl+K: Ctrl down, K down, K up, Ctrl up), then waits. */
    public static void keys(FxRobot robot, KeyCode... chord) {
        KeyboardRobot keyboard = robot.robotContext().getKeyboardRobot();
        keyboard.pressNoWait(chord);
        KeyCode[] reversed = new KeyCode[chord.length];
        for (int i = 0; i < chord.length; i++) {
            reversed[i] = chord[chord.length - 1 - i];
        }
        keyboard.releaseNoWait(reversed);
        WaitForAsyncUtils.waitForFxEvents();
    }

    /**
     * Types {@code text} into the window TestFX's {@code write} would (the focused one, else the robot's
     * target), as the same events (pressed, typed, released per character), then waits.
     */
    public static void write(FxRobot robot, String text) {
        Window w = robot.robotContext().getWindowFinder().window(Window::isFocused);
        if (w == null) {
            w = robot.robotContext().getWindowFinder().targetWindow();
        }
        if (w == null) {
            w = robot.robotContext().getWindowFinder().window(0);
        }
        Scene scene = w.getScene();
        BaseRobot base = robot.robotContext().getBaseRobot();
        for (char c : text.toCharArray()) {
            KeyCode code = c == '\n' ? KeyCode.ENTER : c == '\t' ? KeyCode.TAB : KeyCode.UNDEFINED; // as TestFX's
            base.typeKeyboard(scene, code, Character.toString(c));
        }
        WaitForAsyncUtils.waitForFxEvents();
    }
}
