package dev.loommatrix.runner.records;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A measured window's latencies in an HdrHistogram (3 significant digits, microseconds, any range): every
 * answered request's duration as oha stored it in its SQLite database ({@code --db-url}), which in an open
 * model runs from the request's due time (oha's latency correction). The percentiles of a service's samples
 * are read from it, its percentile distribution is what the dashboard plots, and the histogram itself is kept
 * in the sample in HdrHistogram's own compressed encoding, so a user can load it with HdrHistogram's tools
 * ({@code Histogram.decodeFromCompressedByteBuffer}) and merge or re-plot it.
 */
public final class LatencyHistogram {

    static final int SIGNIFICANT_DIGITS = 3;

    /** The percentile distribution's resolution: HdrHistogram's own default for its percentile output. */
    static final int TICKS_PER_HALF_DISTANCE = 5;

    /** The percentiles every service sample names (its metrics), beside the distribution's ticks. */
    static final double[] NAMED = {50, 90, 99, 99.9, 99.99};

    private LatencyHistogram() {}

    /** Every request oha stored in {@code db}; empty when it holds none (nothing was answered). */
    public static Optional<Histogram> read(Path db) throws IOException {
        return read(db, Duration.ZERO);
    }

    /**
     * The requests oha stored in {@code db} that were due {@code from} the run's start on (when it was to send them,
     * under latency correction; when it sent them, without); empty when it holds none.
     */
    public static Optional<Histogram> read(Path db, Duration from) throws IOException {
        if (!Files.isRegularFile(db)) {
            return Optional.empty();
        }
        Histogram histogram = new Histogram(SIGNIFICANT_DIGITS);
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + db);
                PreparedStatement statement = connection.prepareStatement(
                        from.isZero()
                                ? "SELECT duration FROM oha"
                                : "SELECT duration FROM oha WHERE COALESCE(start_latency_correction, start) >= ?")) {
            if (!from.isZero()) {
                statement.setDouble(1, from.toNanos() / 1e9);
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    histogram.recordValue(Math.max(0, Math.round(rows.getDouble(1) * 1_000_000)));
                }
            }
        } catch (SQLException e) {
            throw new IOException("oha's request database " + db + " could not be read: " + e.getMessage(), e);
        }
        return histogram.getTotalCount() == 0 ? Optional.empty() : Optional.of(histogram);
    }

    /**
     * The percentile distribution in ms, keyed by percentile ("50", "99.9", the maximum as "100"): HdrHistogram's
     * iteration at {@link #TICKS_PER_HALF_DISTANCE} ticks per half distance to 100 %, and the named percentiles.
     */
    static Map<String, Double> percentilesMs(Histogram histogram) {
        Map<Double, Double> byPercentile = new java.util.TreeMap<>();
        for (HistogramIterationValue v : histogram.percentiles(TICKS_PER_HALF_DISTANCE)) {
            double p = v.getPercentileLevelIteratedTo();
            if (p < 100) {
                byPercentile.put(p, ms(v.getValueIteratedTo()));
            }
        }
        for (double p : NAMED) {
            byPercentile.put(p, ms(histogram.getValueAtPercentile(p)));
        }
        byPercentile.put(100.0, ms(histogram.getMaxValue()));
        Map<String, Double> out = new LinkedHashMap<>();
        byPercentile.forEach((p, ms) -> out.put(key(p), ms));
        return out;
    }

    /** HdrHistogram's compressed encoding in base64 (the form its histogram logs use). */
    static String encoded(Histogram histogram) {
        ByteBuffer buffer = ByteBuffer.allocate(histogram.getNeededByteBufferCapacity());
        int length = histogram.encodeIntoCompressedByteBuffer(buffer);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
    }

    /** The histogram an {@link #encoded} string holds. */
    public static Histogram decoded(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(
                    ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (java.util.zip.DataFormatException e) {
            throw new IllegalArgumentException("not an HdrHistogram: " + e.getMessage(), e);
        }
    }

    private static double ms(long micros) {
        return micros / 1000.0;
    }

    /** 99.90234375 stays exact, 50.0 is "50". */
    static String key(double percentile) {
        return BigDecimal.valueOf(percentile).stripTrailingZeros().toPlainString();
    }
}
