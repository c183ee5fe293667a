package io.headroom.ui.shell;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Where desktop notifications go: {@code notify-send} when the desktop has it, else nowhere. */
public interface Notifier {

    void notify(String title, String body);

    /** The desktop's notifier (freedesktop {@code notify-send}), run on {@code background}; a no-op without it. */
    static Notifier desktop(java.util.concurrent.Executor background) {
        Path bin = null;
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                Path p = Path.of(dir, "notify-send");
                if (Files.isExecutable(p)) {
                    bin = p;
                    break;
                }
            }
        }
        if (bin == null) {
            return (t, b) -> { };
        }
        Path exe = bin;
        Logger log = Logger.getLogger(Notifier.class.getName());
        return (title, body) -> {
            background.execute(() -> {
                try {
                    new ProcessBuilder(exe.toString(), "--app-name=Headroom", title, body).inheritIO().start();
                } catch (java.io.IOException e) {
                    log.log(Level.FINE, "notify-send failed", e);
                }
            });
        };
    }
}
