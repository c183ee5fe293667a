package io.headroom.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A build step, not part of the console (run by {@code mvn process-classes}, as {@code cli.Completion} is by
 * {@code package}): compiles every stylesheet in a folder ({@code target/classes/styles}) to JavaFX's binary form,
 * {@code NAME.bss} beside {@code NAME.css}, with JavaFX's own compiler. JavaFX reads the {@code .bss} beside a
 * {@code .css} it is given when there is one, so the console's first CSS pass loads no CSS parser and parses no
 * text (fast start, issue 28); the CSS stays the source, and {@code -Dbinary.css=false} reads it instead.
 */
public final class BinaryStyles {
    private BinaryStyles() {
    }

    /** @param args the folder whose {@code *.css} are compiled (an older {@code .bss} is replaced) */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        List<Path> sheets;
        try (var files = Files.list(dir)) {
            sheets = files.filter(p -> p.getFileName().toString().endsWith(".css")).sorted().toList();
        }
        for (Path css : sheets) {
            Path bss = binaryOf(css);
            Files.deleteIfExists(bss); // never a stale one beside a changed sheet, even if the next line fails
            com.sun.javafx.css.parser.Css2Bin.convertToBinary(css.toString(), bss.toString());
        }
        System.out.printf("styles: %d stylesheets compiled to .bss in %s%n", sheets.size(), dir);
    }

    /** {@code NAME.bss} beside {@code NAME.css}. */
    static Path binaryOf(Path css) {
        String name = css.getFileName().toString();
        return css.resolveSibling(name.substring(0, name.length() - ".css".length()) + ".bss");
    }
}
