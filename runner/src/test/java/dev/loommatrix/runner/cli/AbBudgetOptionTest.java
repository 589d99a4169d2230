package dev.loommatrix.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** ab's {@code --budget}: a positive duration of at most a week, else the user's mistake (exit 2), said. */
class AbBudgetOptionTest {

    @Test
    void aBudgetIsAPositiveDurationOfAtMostAWeekElseExit2() {
        assertThat(AbCommand.duration("10m")).isEqualTo(java.time.Duration.ofMinutes(10));
        assertThat(AbCommand.duration("90s")).isEqualTo(java.time.Duration.ofSeconds(90));
        for (String[] bad : new String[][] {
            {"soon", "is not a duration"},
            {"0m", "is not a duration"},
            {"169h", "is too long"},
            {"99999999999999999999999h", "is too long"}
        }) {
            CliTest.Result r = CliTest.run("ab", "--matrix", "../matrix.yaml", "--budget", bad[0]);
            assertThat(r.code()).as(bad[0]).isEqualTo(2);
            assertThat(r.err())
                    .as(bad[0])
                    .contains("--budget '" + bad[0] + "' " + bad[1])
                    .doesNotContain("Exception");
        }
    }
}
