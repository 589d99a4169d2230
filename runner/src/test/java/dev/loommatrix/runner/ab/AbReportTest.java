package dev.loommatrix.runner.ab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.compare.SequentialPlan;
import dev.loommatrix.core.result.Json;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code compare.json}'s method says how the α was spent as the run went: all of it by the last look taken when that
 * look was the plan's last or the last the budget afforded; what was left unspent when measuring ended before
 * either — the budget spent before its last look, every comparison decided or none left that could be (#50: the
 * method said "the last look taken … spends all the alpha left" of every run, though a run that stopped for
 * futility at look 5 of 6 had tested that look at α / 6).
 */
class AbReportTest {

    static final String ALL_LEFT =
            "the last look taken, the plan's or the last the budget affords, spends all the" + " alpha left";

    /** The method of a recorded run, made again from what its {@code ab.sequential} says happened. */
    private static String methodOf(String run) throws Exception {
        JsonNode s = Json.MAPPER
                .readTree(Path.of("../benchmarks/results").resolve(run).toFile())
                .path("ab")
                .path("sequential");
        List<Integer> looks = new ArrayList<>();
        s.path("looks").forEach(l -> looks.add(l.asInt()));
        SequentialPlan plan = new SequentialPlan(looks, 0.05);
        assertThat(plan.levelPerLook()).isEqualTo(s.path("levelPerLook").asDouble());
        return AbReport.method(
                plan,
                s.path("looksTaken").asInt(),
                s.path("lastLevel").asDouble(),
                s.path("ended").asText());
    }

    /** Stopped for futility at look 5 of 6, that look tested at α / 6: α / 6 left unspent, said. */
    @Test
    void aRunStoppedBeforeItsLastLookSaysWhatItLeftUnspent() throws Exception {
        String method = methodOf("2026-11-27-ab-lockstep-evening/b2b-aa-1.json");
        assertThat(method)
                .doesNotContain("spends all the alpha left")
                .startsWith(AbReport.DESIGN)
                .endsWith("; measuring ended at look 5 of 6 (none of the comparisons still undecided could be decided"
                        + " in the pairs left), that look tested at its share, alpha"
                        + " 0.00833: 0.00833 of the alpha 0.05 was left unspent)");
    }

    /** The budget's last look (4 of 6, at 2.5 %) and the plan's last (6 of 6) each spent all the α left. */
    @Test
    void aLastLookSaysItSpentAllTheAlphaLeft() throws Exception {
        assertThat(methodOf("2026-11-27-ab-steady/lockstep-aa-1.json"))
                .isEqualTo(AbReport.DESIGN + "; " + ALL_LEFT + ")");
        assertThat(methodOf("2026-11-27-ab-program/aa-after-1.json"))
                .isEqualTo(AbReport.DESIGN + "; " + ALL_LEFT + ")");
        // one look planned: it is the last, at all of α
        assertThat(AbReport.method(SequentialPlan.of(6, 6, 0.05), 1, 0.05, "last-look"))
                .isEqualTo(AbReport.DESIGN + "; " + ALL_LEFT + ")");
    }

    /** The budget spent before the look it could afford was made the last: look 2 of 6 at α / 6, 2/3 of α unspent. */
    @Test
    void aBudgetSpentBeforeItsLastLookSaysSo() {
        SequentialPlan plan = SequentialPlan.of(6, 40, 0.05);
        assertThat(AbReport.method(plan, 2, plan.levelPerLook(), "budget"))
                .doesNotContain("spends all the alpha left")
                .endsWith("; measuring ended at look 2 of 6 (not one more pair fitted the budget), that look tested"
                        + " at its share, alpha 0.00833: 0.0333 of the alpha 0.05 was left unspent)");
        // every comparison decided at the first look
        assertThat(AbReport.method(plan, 1, plan.levelPerLook(), "decided"))
                .endsWith("; measuring ended at look 1 of 6 (every comparison decided), that look tested at its"
                        + " share, alpha 0.00833: 0.0417 of the alpha 0.05 was left unspent)");
    }
}
