package io.headroom.ui.overview;

import java.util.HashMap;
import java.util.Map;
import javafx.scene.image.Image;
import javafx.scene.image.PixelReader;

/**
 * Where a drawn cell has ink: the box, relative to the cell, of the pixels that differ from the
 * cell's background (its most common colour) in a snapshot of the scene. What a row drew,
 * read from what shows, not from what the row says it drew.
 */
public record Ink(boolean found, double left, double right, double top, double bottom) {

    public static Ink of(Image shot, OverviewView.DrawnCell c) {
        PixelReader p = shot.getPixelReader();
        int x0 = (int) Math.round(c.sceneCorner().getX());
        int y0 = (int) Math.round(c.sceneCorner().getY());
        int w = (int) Math.floor(c.width());
        int h = (int) Math.floor(c.height()) - 1; // the row's bottom border is not the cell's
        Map<Integer, Integer> counts = new HashMap<>();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                counts.merge(p.getArgb(x0 + x, y0 + y), 1, Integer::sum);
            }
        }
        int background = counts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        int left = Integer.MAX_VALUE;
        int right = -1;
        int top = Integer.MAX_VALUE;
        int bottom = -1;
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                if (distance(p.getArgb(x0 + x, y0 + y), background) > 30) {
                    left = Math.min(left, x);
                    right = Math.max(right, x + 1);
                    top = Math.min(top, y);
                    bottom = Math.max(bottom, y + 1);
                }
            }
        }
        return right < 0 ? new Ink(false, 0, 0, 0, 0) : new Ink(true, left, right, top, bottom);
    }

    private static int distance(int a, int b) {
        return Math.abs((a >> 16 & 255) - (b >> 16 & 255)) + Math.abs((a >> 8 & 255) - (b >> 8 & 255))
                + Math.abs((a & 255) - (b & 255));
    }
}
