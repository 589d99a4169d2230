package dev.loommatrix.runner.records;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * oha's request database (its {@code --db-url}, the table oha 1.16.0 creates) read into an HdrHistogram: the
 * percentiles are the order statistics of the durations written, to the histogram's 3 significant digits.
 */
class LatencyHistogramTest {

    @Test
    void everyStoredRequestIsInTheHistogramAndItsPercentilesAreTheDurationsOrderStatistics(@TempDir Path dir)
            throws Exception {
        Path db = dir.resolve("measured.db");
        // 10,000 requests of 1 … 10,000 µs, written in a shuffled order, as oha's schema holds them (seconds)
        List<Integer> micros = new ArrayList<>();
        for (int i = 1; i <= 10_000; i++) {
            micros.add(i);
        }
        java.util.Collections.shuffle(micros, new java.util.Random(7));
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + db);
                var s = c.createStatement()) {
            s.execute("CREATE TABLE oha (url TEXT NOT NULL, start REAL NOT NULL, start_latency_correction REAL, "
                    + "end REAL NOT NULL, duration REAL NOT NULL, status INTEGER NOT NULL, "
                    + "len_bytes INTEGER NOT NULL, run INTEGER NOT NULL)");
            c.setAutoCommit(false);
            try (var insert = c.prepareStatement("INSERT INTO oha VALUES ('http://s/', 0, NULL, 0, ?, 200, 2, 0)")) {
                for (int us : micros) {
                    insert.setDouble(1, us / 1e6);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            c.commit();
        }
        Histogram h = LatencyHistogram.read(db).orElseThrow();
        assertThat(h.getTotalCount()).isEqualTo(10_000);
        Map<String, Double> ms = LatencyHistogram.percentilesMs(h);
        // the k-th smallest of 1 … N µs is k µs: p50 = 5 ms, p99 = 9.9 ms, p99.9 = 9.99 ms, max = 10 ms
        assertThat(ms.get("50")).isCloseTo(5.0, within(5.0 * 1e-3));
        assertThat(ms.get("90")).isCloseTo(9.0, within(9.0 * 1e-3));
        assertThat(ms.get("99")).isCloseTo(9.9, within(9.9 * 1e-3));
        assertThat(ms.get("99.9")).isCloseTo(9.99, within(9.99 * 1e-3));
        assertThat(ms.get("100")).isCloseTo(10.0, within(10.0 * 1e-3));
        // HdrHistogram's percentile distribution: from 0 % up, denser toward the tail, never decreasing
        assertThat(ms).containsKeys("0", "75", "87.5", "99.99");
        assertThat(ms.size()).isGreaterThan(40);
        List<Double> keys = ms.keySet().stream().map(Double::parseDouble).toList();
        assertThat(keys).isSorted();
        assertThat(new ArrayList<>(ms.values())).isSorted();
        // its own encoding round-trips: users can load the sample's histogram with HdrHistogram's tools
        assertThat(LatencyHistogram.decoded(LatencyHistogram.encoded(h))).isEqualTo(h);
    }

    /**
     * A capacity window's first seconds, while the generator opens its connections, are not counted (issue #52):
     * only the requests due from the opening's end on are the window's — by when they were due under latency
     * correction, when they were sent without it.
     */
    @Test
    void aWindowAfterItsOpeningHoldsTheRequestsDueFromTheOpeningsEndOn(@TempDir Path dir) throws Exception {
        Path db = dir.resolve("warmed.db");
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + db);
                var s = c.createStatement()) {
            s.execute("CREATE TABLE oha (url TEXT NOT NULL, start REAL NOT NULL, start_latency_correction REAL, "
                    + "end REAL NOT NULL, duration REAL NOT NULL, status INTEGER NOT NULL, "
                    + "len_bytes INTEGER NOT NULL, run INTEGER NOT NULL)");
            // the opening's: due before 5 s, slow (new connections); a request due at 4.9 s but sent at 5.4 s is the
            // opening's; the window's: due from 5 s on, 300 ms; one without correction, sent at 6 s
            s.execute("INSERT INTO oha VALUES ('/', 0.1, 0.0, 3.1, 3.1, 200, 2, 0)");
            s.execute("INSERT INTO oha VALUES ('/', 5.4, 4.9, 6.4, 1.5, 200, 2, 0)");
            s.execute("INSERT INTO oha VALUES ('/', 5.0, 5.0, 5.3, 0.3, 200, 2, 0)");
            s.execute("INSERT INTO oha VALUES ('/', 7.2, 7.1, 7.4, 0.3, 200, 2, 0)");
            s.execute("INSERT INTO oha VALUES ('/', 6.0, NULL, 6.3, 0.3, 200, 2, 0)");
        }
        Histogram window =
                LatencyHistogram.read(db, java.time.Duration.ofSeconds(5)).orElseThrow();
        assertThat(window.getTotalCount()).isEqualTo(3);
        assertThat(window.getMaxValue() / 1000.0).isCloseTo(300.0, within(0.5));
        assertThat(LatencyHistogram.read(db).orElseThrow().getTotalCount()).isEqualTo(5);
        assertThat(LatencyHistogram.read(db, java.time.Duration.ofSeconds(8))).isEmpty();
    }

    @Test
    void aDatabaseThatIsMissingOrEmptyGivesNoHistogram(@TempDir Path dir) throws Exception {
        assertThat(LatencyHistogram.read(dir.resolve("none.db"))).isEmpty();
        Path db = dir.resolve("empty.db");
        try (var c = DriverManager.getConnection("jdbc:sqlite:" + db);
                var s = c.createStatement()) {
            s.execute("CREATE TABLE oha (duration REAL NOT NULL)");
        }
        assertThat(LatencyHistogram.read(db)).isEmpty();
    }

    @Test
    void percentileKeysAreExactDecimals() {
        assertThat(LatencyHistogram.key(50.0)).isEqualTo("50");
        assertThat(LatencyHistogram.key(99.90234375)).isEqualTo("99.90234375");
        assertThat(LatencyHistogram.key(100)).isEqualTo("100");
    }
}
