package io.headroom.sandbox;

import java.util.Arrays;

/**
 * A growable FIFO ring of primitive doubles. The simulation keeps queue enqueue times and
 * rolling-window samples here so long runs do not box a Double per job.
 */
final class DoubleRing {
    private double[] items;
    private int head;
    private int size;

    DoubleRing() {
        this(16);
    }

    DoubleRing(int capacity) {
        items = new double[Math.max(4, capacity)];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void addLast(double v) {
        if (size == items.length) {
            grow();
        }
        items[(head + size) % items.length] = v;
        size++;
    }

    /** Puts {@code v} at the head (a job handed back goes first). */
    void addFirst(double v) {
        if (size == items.length) {
            grow();
        }
        head = (head - 1 + items.length) % items.length;
        items[head] = v;
        size++;
    }

    double peekFirst() {
        if (size == 0) {
            throw new IllegalStateException("empty");
        }
        return items[head];
    }

    double pollFirst() {
        double v = peekFirst();
        head = (head + 1) % items.length;
        size--;
        return v;
    }

    /** The i-th element from the head. */
    double get(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException(i);
        }
        return items[(head + i) % items.length];
    }

    private void grow() {
        double[] bigger = new double[items.length * 2];
        for (int i = 0; i < size; i++) {
            bigger[i] = items[(head + i) % items.length];
        }
        items = bigger;
        head = 0;
    }

    @Override
    public String toString() {
        double[] copy = new double[size];
        for (int i = 0; i < size; i++) {
            copy[i] = get(i);
        }
        return Arrays.toString(copy);
    }
}
