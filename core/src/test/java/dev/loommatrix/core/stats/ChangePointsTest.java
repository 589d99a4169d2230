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
}
