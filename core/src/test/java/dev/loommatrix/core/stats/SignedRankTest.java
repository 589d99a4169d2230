package dev.loommatrix.core.stats;

import static dev.loommatrix.core.stats.MannWhitneyTest.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Against scipy and numpy (fixtures/stats/signed-rank.json, written by generate.py beside it): the exact
 * permutation p-value of 303 small samples of paired differences, most with zeros or tied magnitudes, the
 * normal approximation for 20 large ones, and the Hodges–Lehmann interval with its level for n = 2 … 14.
 */
class SignedRankTest {

    private static JsonNode fixture() throws Exception {
        return Json.MAPPER.readTree(
                Path.of("src/test/resources/fixtures/stats/signed-rank.json").toFile());
    }

    @Test
    void pValuesAreScipys() throws Exception {
        int exact = 0;
        int approximate = 0;
        for (JsonNode c : fixture().get("cases")) {
            double[] d = values(c.get("d"));
            boolean permutation = c.get("method").asText().equals("permutation");
            assertThat(SignedRank.pValue(d))
                    .as("%s", c.get("d"))
                    .isCloseTo(c.get("p").asDouble(), within(permutation ? 1e-12 : 1e-9));
            if (permutation) {
                exact++;
            } else {
                approximate++;
            }
        }
        assertThat(exact).isEqualTo(303);
        assertThat(approximate).isEqualTo(20);
    }

    @Test
    void intervalsAndEstimatesAreTheReferences() throws Exception {
        for (JsonNode c : fixture().get("intervals")) {
            double[] d = values(c.get("d"));
            RatioInterval.Result interval = SignedRank.interval(d);
            assertThat(interval.level())
                    .as("level, n = %d", d.length)
                    .isCloseTo(c.get("level").asDouble(), within(1e-12));
            assertThat(interval.bounds().get(0)).isCloseTo(c.get("lower").asDouble(), within(1e-12));
            assertThat(interval.bounds().get(1)).isCloseTo(c.get("upper").asDouble(), within(1e-12));
            assertThat(SignedRank.hodgesLehmann(d)).isCloseTo(c.get("estimate").asDouble(), within(1e-12));
        }
    }

    @Test
    void theSmallestReachablePIsOneSignEverywhere() {
        assertThat(SignedRank.smallestP(6)).isEqualTo(0.03125);
        assertThat(SignedRank.pValue(new double[] {0.1, 0.2, 0.3, 0.4, 0.5, 0.6}))
                .isEqualTo(0.03125);
        assertThat(SignedRank.pValue(new double[] {0, 0, 0})).isEqualTo(1.0);
        assertThat(SignedRank.pValue(new double[0])).isNaN();
    }
}
