package dev.loommatrix.core.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.result.Json;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Against scipy (fixtures/stats/mann-whitney.json, written by generate.py beside it): the exact
 * permutation p-value for 403 small pairs, most with ties, and the asymptotic one for 20 large pairs.
 */
class MannWhitneyTest {

    static double[] values(JsonNode array) {
        double[] out = new double[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).asDouble();
        }
        return out;
    }

    @Test
    void pValuesAreScipys() throws Exception {
        JsonNode fixture = Json.MAPPER.readTree(
                Path.of("src/test/resources/fixtures/stats/mann-whitney.json").toFile());
        int exact = 0;
        int asymptotic = 0;
        for (JsonNode c : fixture.get("cases")) {
            double[] x = values(c.get("x"));
            double[] y = values(c.get("y"));
            double expected = c.get("p").asDouble();
            boolean permutation = c.get("method").asText().equals("permutation");
            assertThat(MannWhitney.pValue(x, y))
                    .as("%s vs %s", c.get("x"), c.get("y"))
                    .isCloseTo(expected, within(permutation ? 1e-12 : 1e-9));
            if (permutation) {
                exact++;
            } else {
                asymptotic++;
            }
        }
        assertThat(exact).isEqualTo(403);
        assertThat(asymptotic).isEqualTo(20);
    }

    @Test
    void theSmallestReachablePAndTheRepetitionsThatReachALevel() {
        assertThat(MannWhitney.smallestP(3, 3)).isCloseTo(0.1, within(1e-15));
        assertThat(MannWhitney.smallestP(5, 5)).isCloseTo(2.0 / 252, within(1e-15));
        assertThat(MannWhitney.repetitionsToReach(0.05)).isEqualTo(4); // 2 / 70 = 0.029
        assertThat(MannWhitney.repetitionsToReach(0.05 / 360)).isEqualTo(9);
    }
}
