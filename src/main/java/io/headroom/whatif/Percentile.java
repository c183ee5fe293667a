package io.headroom.whatif;

/** The k-th smallest of an array's first values without sorting them all (a day is 86,400 samples a run). */
final class Percentile {

    private Percentile() {
    }

    /**
     * The value that would be at index {@code k} of the first {@code n} values sorted ascending.
     * Reorders those values in place (quickselect, median-of-three pivots).
     */
    static double select(double[] a, int n, int k) {
        if (k < 0 || k >= n || n > a.length) {
            throw new IllegalArgumentException("k " + k + " outside 0.." + (n - 1));
        }
        int lo = 0;
        int hi = n - 1;
        while (hi > lo) {
            int mid = (lo + hi) >>> 1;
            // Median of three as the pivot, so sorted or constant runs stay linear.
            if (a[mid] < a[lo]) {
                swap(a, mid, lo);
            }
            if (a[hi] < a[lo]) {
                swap(a, hi, lo);
            }
            if (a[hi] < a[mid]) {
                swap(a, hi, mid);
            }
            double pivot = a[mid];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (a[i] < pivot) {
                    i++;
                }
                while (a[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    swap(a, i, j);
                    i++;
                    j--;
                }
            }
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                return a[k];
            }
        }
        return a[k];
    }

    private static void swap(double[] a, int i, int j) {
        double t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
