package dev.loommatrix.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.apache.commons.statistics.distribution.TDistribution;
import org.junit.jupiter.api.Test;

/**
 * The nested A/B test: against scipy's paired t-test on fork means (fixtures/stats/nested-paired.json, written by
 * generate_nested.py beside it), and by simulation with known between- and within-fork variance — where its
 * interval covers the true change at its stated level, and treating every iteration as independent does not.
 */
class NestedPairedTest {

    @Test
    void agreesWithScipysPairedTTestOnForkMeans() throws Exception {
        JsonNode fixture;
        try (InputStream in = getClass().getResourceAsStream("/fixtures/stats/nested-paired.json")) {
            fixture = new ObjectMapper().readTree(in);
        }
        for (JsonNode c : fixture.get("cases")) {
            List<double[]> baseline = forks(c.get("baseline"));
            List<double[]> candidate = forks(c.get("candidate"));
            double[] d = new double[baseline.size()];
            for (int k = 0; k < d.length; k++) {
                d[k] = NestedPaired.forkMean(candidate.get(k)) - NestedPaired.forkMean(baseline.get(k));
            }
            NestedPaired.Result at95 = NestedPaired.test(d, 0.95).orElseThrow();
            NestedPaired.Result at99 = NestedPaired.test(d, 0.99).orElseThrow();
            assertThat(at95.pValue()).isCloseTo(c.get("p").asDouble(), within(1e-9));
            assertThat(at95.meanLogRatio() / (at95.sdLogRatio() / Math.sqrt(d.length)))
                    .isCloseTo(c.get("statistic").asDouble(), within(1e-9));
            for (int i = 0; i < 2; i++) {
                assertThat(at95.interval().get(i))
                        .isCloseTo(c.get("ci95").get(i).asDouble(), within(1e-9));
                assertThat(at99.interval().get(i))
                        .isCloseTo(c.get("ci99").get(i).asDouble(), within(1e-9));
            }
        }
    }

    /**
     * Forks with σ_b = 3 % between them and σ_w = 5 % between a fork's iterations, 5 iterations each, 8 pairs, a
     * 5 % change: the nested interval covers it at its stated 95 %; an interval that takes the 40 iterations a side
     * as independent covers far less (it ignores what a fork's iterations share), which is why the fork stays the
     * unit. The components are estimated near their true values.
     */
    @Test
    void itsIntervalCoversAKnownChangeAtItsLevelWithKnownBetweenAndWithinForkVariance() {
        Random random = new Random(2611);
        double between = 0.03;
        double withinFork = 0.05;
        int pairs = 8;
        int k = 5;
        double shift = Math.log(1.05);
        int runs = 4_000;
        int nestedCovered = 0;
        int naiveCovered = 0;
        double betweenSum = 0;
        double withinSum = 0;
        for (int r = 0; r < runs; r++) {
            List<double[]> a = new ArrayList<>();
            List<double[]> b = new ArrayList<>();
            double[] d = new double[pairs];
            for (int p = 0; p < pairs; p++) {
                double moment = 0.02 * random.nextGaussian();
                a.add(fork(random, moment, between, withinFork, k));
                b.add(fork(random, moment + shift, between, withinFork, k));
                d[p] = NestedPaired.forkMean(b.get(p)) - NestedPaired.forkMean(a.get(p));
            }
            List<Double> ci = NestedPaired.test(d, 0.95).orElseThrow().interval();
            if (ci.get(0) <= shift && shift <= ci.get(1)) {
                nestedCovered++;
            }
            if (naiveCovers(a, b, shift)) {
                naiveCovered++;
            }
            NestedPaired.Components components = NestedPaired.components(a).orElseThrow();
            betweenSum += components.betweenForks();
            withinSum += components.withinForks();
        }
        double nested = (double) nestedCovered / runs;
        double naive = (double) naiveCovered / runs;
        System.out.printf(
                Locale.ROOT,
                "nested A/B, σ_b 3 %%, σ_w 5 %%, %d pairs × %d iterations: nested t covers %.4f (stated 0.95),"
                        + " iterations as independent %.4f; σ_b estimated %.4f, σ_w %.4f on average%n",
                pairs,
                k,
                nested,
                naive,
                betweenSum / runs,
                withinSum / runs);
        assertThat(nested).isGreaterThanOrEqualTo(0.95 - 3 * Math.sqrt(0.95 * 0.05 / runs));
        assertThat(naive).isLessThan(0.90);
        assertThat(withinSum / runs).isCloseTo(withinFork, within(0.005));
        assertThat(betweenSum / runs).isCloseTo(between, within(0.01));
    }

    @Test
    void twoModesOfForksAreFoundAndOneModeIsNot() {
        double[] bimodal = {10.0, 10.1, 9.9, 10.05, 12.0, 12.1, 11.95, 12.05};
        NestedPaired.Modes modes = NestedPaired.modes(bimodal).orElseThrow();
        assertThat(modes.low()).isEqualTo(4);
        assertThat(modes.high()).isEqualTo(4);
        assertThat(modes.lowMedian()).isCloseTo(10.025, within(1e-9));
        // normal samples of 8: a false "two modes" is rare
        Random random = new Random(5);
        int found = 0;
        for (int r = 0; r < 2_000; r++) {
            double[] one = new double[8];
            for (int i = 0; i < one.length; i++) {
                one[i] = 10 + random.nextGaussian();
            }
            found += NestedPaired.modes(one).isPresent() ? 1 : 0;
        }
        System.out.printf(Locale.ROOT, "one mode taken for two: %d of 2000 samples of 8%n", found);
        assertThat(found).isLessThan(20);
    }

    @Test
    void aForkAloneInAModeOfItsOwnIsFoundAndATailIsNot() {
        // a real A/A block's candidate: fib-fanout sequential, one fork of 8 compiled the slow way (ms, geometric
        // means of 40 iterations)
        double[] candidate = {12.71, 12.53, 12.32, 12.32, 23.08, 12.42, 12.33, 12.61};
        NestedPaired.Modes modes = NestedPaired.modes(candidate).orElseThrow();
        assertThat(modes.low()).isEqualTo(7);
        assertThat(modes.high()).isEqualTo(1);
        assertThat(modes.highMedian()).isEqualTo(23.08);
        // the fastest fork alone, too
        double[] fast = {12.71, 12.53, 12.32, 12.32, 6.1, 12.42, 12.33, 12.61};
        assertThat(NestedPaired.modes(fast).orElseThrow().low()).isEqualTo(1);
        // too few forks to call one of them a mode
        assertThat(NestedPaired.modes(new double[] {12.71, 12.53, 12.32, 23.08, 12.42}))
                .isEmpty();
        // normal samples of 8 and 20: a lone fork is rarely found where there is none (0.05 % expected at 8)
        Random random = new Random(7);
        int found = 0;
        for (int r = 0; r < 4_000; r++) {
            double[] one = new double[r % 2 == 0 ? 8 : 20];
            for (int i = 0; i < one.length; i++) {
                one[i] = 10 + random.nextGaussian();
            }
            found += NestedPaired.modes(one)
                            .filter(m -> m.low() == 1 || m.high() == 1)
                            .isPresent()
                    ? 1
                    : 0;
        }
        assertThat(found).isLessThan(12);
    }

    /** A two-sample t interval over every iteration of every fork, as if they were independent. */
    private static boolean naiveCovers(List<double[]> a, List<double[]> b, double shift) {
        double[] x = a.stream()
                .flatMapToDouble(java.util.Arrays::stream)
                .map(Math::log)
                .toArray();
        double[] y = b.stream()
                .flatMapToDouble(java.util.Arrays::stream)
                .map(Math::log)
                .toArray();
        double mx = java.util.Arrays.stream(x).average().orElseThrow();
        double my = java.util.Arrays.stream(y).average().orElseThrow();
        double vx = java.util.Arrays.stream(x).map(v -> (v - mx) * (v - mx)).sum() / (x.length - 1);
        double vy = java.util.Arrays.stream(y).map(v -> (v - my) * (v - my)).sum() / (y.length - 1);
        double se = Math.sqrt(vx / x.length + vy / y.length);
        double half = TDistribution.of(x.length + y.length - 2).inverseSurvivalProbability(0.025) * se;
        return my - mx - half <= shift && shift <= my - mx + half;
    }

    private static double[] fork(Random random, double centre, double between, double withinFork, int k) {
        double forkEffect = between * random.nextGaussian();
        double[] out = new double[k];
        for (int i = 0; i < k; i++) {
            out[i] = Math.exp(Math.log(10) + centre + forkEffect + withinFork * random.nextGaussian());
        }
        return out;
    }

    private static List<double[]> forks(JsonNode node) {
        List<double[]> out = new ArrayList<>();
        for (JsonNode fork : node) {
            double[] values = new double[fork.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = fork.get(i).asDouble();
            }
            out.add(values);
        }
        return out;
    }
}
