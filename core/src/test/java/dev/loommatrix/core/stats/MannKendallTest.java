package dev.loommatrix.core.stats;

import static dev.loommatrix.core.stats.MannWhitneyTest.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Against scipy (fixtures/stats/mann-kendall.json, written by generate.py): kendalltau of (run order, value),
 * exact for 149 series without ties, asymptotic for 60 with ties.
 */
class MannKendallTest {

    @Test
    void pValuesAreScipys() throws Exception {
        JsonNode fixture = Json.MAPPER.readTree(
                Path.of("src/test/resources/fixtures/stats/mann-kendall.json").toFile());
        int exact = 0;
        int asymptotic = 0;
        for (JsonNode c : fixture.get("cases")) {
            boolean isExact = c.get("method").asText().equals("exact");
            assertThat(MannKendall.pValue(values(c.get("y"))))
                    .as("%s", c.get("y"))
                    .isCloseTo(c.get("p").asDouble(), within(isExact ? 1e-12 : 1e-9));
            if (isExact) {
                exact++;
            } else {
                asymptotic++;
            }
        }
        assertThat(exact).isEqualTo(149);
        assertThat(asymptotic).isEqualTo(60);
    }

    @Test
    void aSeriesTooShortOrFlatShowsNoTrend() {
        assertThat(MannKendall.pValue(new double[] {1, 2})).isEqualTo(1.0);
        assertThat(MannKendall.pValue(new double[] {5, 5, 5, 5})).isEqualTo(1.0);
        // five values rising: 2 / 5! = 0.0167
        assertThat(MannKendall.pValue(new double[] {1, 2, 3, 4, 5})).isCloseTo(2.0 / 120, within(1e-12));
    }
}
