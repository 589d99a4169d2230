package dev.loommatrix.core.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ChangePointsTest {

    static double[] series(long seed, double sigma, double... levels) {
        // levels given as pairs: (length, mean) …
        SplittableRandom random = new SplittableRandom(seed);
        int n = 0;
        for (int i = 0; i < levels.length; i += 2) {
            n += (int) levels[i];
        }
        double[] y = new double[n];
        int at = 0;
        for (int i = 0; i < levels.length; i += 2) {
            for (int k = 0; k < (int) levels[i]; k++) {
                double u = 1 - random.nextDouble();
                double v = random.nextDouble();
                y[at++] = levels[i + 1]
                        + sigma * StrictMath.sqrt(-2 * StrictMath.log(u)) * StrictMath.cos(2 * Math.PI * v);
            }
        }
        return y;
    }

    @Test
    void aStepIsFoundWhereItHappened() {
        double[] y = series(1, 5, 15, 1000, 15, 1100); // a 10 % step after run 15, 0.5 % noise
        assertThat(ChangePoints.detect(y)).containsExactly(15);
    }

    @Test
    void twoStepsAreFound() {
        double[] y = series(2, 5, 10, 1000, 10, 1200, 10, 1050);
        assertThat(ChangePoints.detect(y)).containsExactly(10, 20);
    }

    @Test
    void noiseAloneHasNoChangePoint() {
        // 1 % noise, the usual spread of a median over repetitions: never a change point
        for (long seed = 3; seed < 53; seed++) {
            assertThat(ChangePoints.detect(series(seed, 10, 30, 1000)))
                    .as("seed %d", seed)
                    .isEmpty();
        }
    }

    @Test
    void noisierSeriesRarelyRaiseAFalseAlarm() {
        // 3 % noise is close to the 5 % shift that counts; false alarms stay rare
        int alarms = 0;
        for (long seed = 100; seed < 300; seed++) {
            alarms += ChangePoints.detect(series(seed, 30, 30, 1000)).isEmpty() ? 0 : 1;
        }
        assertThat(alarms).isLessThanOrEqualTo(200 / 10);
    }

    @Test
    void oneOddRunIsNotALevel() {
        double[] y = series(4, 5, 20, 1000);
        y[10] = 1500;
        assertThat(ChangePoints.detect(y)).isEmpty();
        assertThat(ChangePoints.detect(new double[] {1, 2, 3})).isEmpty();
    }

    /** PELT itself: the same change points as the ruptures library on 60 series (fixtures/stats/pelt.json). */
    @Test
    void peltIsRupturesPelt() throws Exception {
        var fixture = dev.loommatrix.core.result.Json.MAPPER.readTree(
                java.nio.file.Path.of("src/test/resources/fixtures/stats/pelt.json")
                        .toFile());
        for (var c : fixture.get("series")) {
            double[] y = MannWhitneyTest.values(c.get("y"));
            assertThat(ChangePoints.noise(y))
                    .isCloseTo(c.get("sigma").asDouble(), org.assertj.core.api.Assertions.within(1e-9));
            java.util.List<Integer> expected = new java.util.ArrayList<>();
            c.get("changePoints").forEach(b -> expected.add(b.asInt()));
            assertThat(ChangePoints.pelt(y, ChangePoints.noise(y)))
                    .as("%s", c.get("y"))
                    .isEqualTo(expected);
        }
    }

    /** Detection rate of a step at {@code at} of {@code n} runs: found within a run of where it happened. */
    static double detected(int n, int at, double step, double noise, int trials, long seed) {
        int found = 0;
        for (int t = 0; t < trials; t++) {
            double[] y = series(seed + t, noise * 1000, at, 1000, n - at, 1000 * (1 + step));
            found += ChangePoints.detect(y).stream().anyMatch(i -> Math.abs(i - at) <= 1) ? 1 : 0;
        }
        return (double) found / trials;
    }

    /**
     * Issue #16, case 5, and the figures docs/statistics.md states (seeded synthetic series, 1,000 each): a +10 %
     * step in 0.5 % noise mid-series was found in 93.6 % of series, now in all; a step with only a few runs after
     * it; false alarms on flat series; a slow drift, which it flags as a step somewhere along it. The series are
     * seeded, so the rates are fixed: each is pinned to the figure docs/statistics.md states (issue #32: bounds
     * 5-20 points looser than the stated figures let a real regression through).
     */
    @Test
    void detectionRatesAreTheOnesTheReadmeStates() {
        double mid = detected(30, 15, 0.10, 0.005, 1000, 10_000);
        double seven = detected(30, 15, 0.07, 0.01, 1000, 20_000);
        double atThreshold = detected(30, 15, 0.05, 0.01, 1000, 25_000);
        double fiveAfter = detected(30, 25, 0.10, 0.005, 1000, 30_000);
        double threeAfter = detected(30, 27, 0.10, 0.005, 1000, 40_000);
        double twoAfter = detected(30, 28, 0.10, 0.005, 1000, 50_000);
        int alarms = 0;
        for (long seed = 60_000; seed < 61_000; seed++) {
            alarms += ChangePoints.detect(series(seed, 10, 30, 1000)).isEmpty() ? 0 : 1;
        }
        int drifts = 0;
        for (long seed = 70_000; seed < 71_000; seed++) {
            double[] y = series(seed, 5, 30, 1000);
            for (int i = 0; i < y.length; i++) {
                y[i] *= 1 + 0.005 * i; // +0.5 % a run, in 0.5 % noise
            }
            drifts += ChangePoints.detect(y).isEmpty() ? 0 : 1;
        }
        System.out.printf(
                "change points: +10%% mid %.3f, +7%% in 1%% noise %.3f, +5%% in 1%% noise %.3f, 5 runs after %.3f,"
                        + " 3 after %.3f, 2 after %.3f, false alarms %d/1000, drift flagged %d/1000%n",
                mid, seven, atThreshold, fiveAfter, threeAfter, twoAfter, alarms, drifts);
        // docs/statistics.md's change-point row: 100 %, 99.8 % with 5 runs after, 99.1 % with 3, a +7 % step in 1 %
        // noise 100 %, the 5 % minimum 50.3 %, false alarms 0 in 1,000, the drift flagged in 1,000 of 1,000
        assertThat(mid)
                .as("+10 %% step mid-series, 0.5 %% noise (README: 100 %%; was 93.6 %%)")
                .isEqualTo(1.0);
        assertThat(seven).as("+7 %% step, 1 %% noise (README: 100 %%)").isEqualTo(1.0);
        assertThat(atThreshold)
                .as("a step of exactly the 5 %% minimum (README: 50.3 %%)")
                .isEqualTo(0.503);
        assertThat(fiveAfter).as("5 runs after the step (README: 99.8 %%)").isEqualTo(0.998);
        assertThat(threeAfter).as("3 runs after the step (README: 99.1 %%)").isEqualTo(0.991);
        assertThat(twoAfter)
                .as("2 runs after: a segment needs 3, so at most a run early or not at all (README)")
                .isLessThan(0.3);
        assertThat(alarms)
                .as("false alarms in 1,000 flat series, 1 %% noise (README: 0)")
                .isZero();
        assertThat(drifts)
                .as("+0.5 %% a run for 30 runs (+15 %%): flagged as a step (README: 1,000 of 1,000)")
                .isEqualTo(1000);
    }
}
