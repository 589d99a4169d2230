package dev.loommatrix.core.conclude;

import static dev.loommatrix.core.conclude.Conclusion.CANNOT_TELL;
import static dev.loommatrix.core.conclude.Conclusion.HURTS;
import static dev.loommatrix.core.conclude.Conclusion.NO_DIFFERENCE;
import static dev.loommatrix.core.conclude.Conclusion.PAYS_OFF;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.conclude.BoundaryRules.Clause;
import dev.loommatrix.core.conclude.BoundaryRules.Placed;
import dev.loommatrix.core.conclude.BoundaryRules.Rule;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BoundaryRulesTest {

    static final List<String> AXES = List.of("jdk", "cpus", "parallelism");

    static Placed<String> at(String jdk, String cpus, String par, Conclusion c) {
        return new Placed<>(Map.of("jdk", jdk, "cpus", cpus, "parallelism", par), c, jdk + "/" + cpus + "/" + par);
    }

    static String said(List<Rule<String>> rules) {
        List<String> lines = new ArrayList<>();
        for (Rule<String> r : rules) {
            String where = r.where().stream()
                    .map(c -> c.axis() + "=" + String.join("|", c.values()))
                    .reduce((a, b) -> a + " & " + b)
                    .orElse("everywhere");
            lines.add(where + ": " + r.conclusion().words() + " ("
                    + r.conditions().size() + ")");
        }
        return String.join("\n", lines);
    }

    @Test
    void nothingChangesIsOneRule() {
        var rules = BoundaryRules.of(
                List.of(
                        at("21", "1", "auto", PAYS_OFF),
                        at("21", "2", "auto", PAYS_OFF),
                        at("25", "1", "auto", PAYS_OFF)),
                AXES);
        assertThat(said(rules)).isEqualTo("everywhere: pays off (3)");
    }

    @Test
    void oneAxisThatDecidesGivesARulePerClass() {
        // pinning: hurts on 21 at every CPU limit, no difference on 25 (JEP 491)
        var rules = BoundaryRules.of(
                List.of(
                        at("21", "1", "auto", HURTS),
                        at("25", "1", "auto", NO_DIFFERENCE),
                        at("21", "2", "auto", HURTS),
                        at("25", "2", "auto", NO_DIFFERENCE),
                        at("23", "1", "auto", HURTS),
                        at("23", "2", "auto", HURTS)),
                AXES);
        assertThat(said(rules)).isEqualTo("jdk=21|23: hurts (4)\njdk=25: no difference (2)");
    }

    @Test
    void twoAxesNestTheFewestClauses() {
        // pays off on 25 everywhere; on 21 it pays off at 2 CPUs and cannot tell at 1
        var rules = BoundaryRules.of(
                List.of(
                        at("21", "1", "auto", CANNOT_TELL),
                        at("21", "2", "auto", PAYS_OFF),
                        at("25", "1", "auto", PAYS_OFF),
                        at("25", "2", "auto", PAYS_OFF)),
                AXES);
        // three rules either way round; the tie goes to the first axis the caller names
        assertThat(rules).hasSize(3);
        assertThat(said(rules))
                .isEqualTo("jdk=21 & cpus=1: cannot tell (1)\njdk=21 & cpus=2: pays off (1)\njdk=25: pays off (2)");
    }

    @Test
    void theAxisThatExplainsMoreWinsWhateverItsPlace() {
        // cpus decides alone; jdk, named first, would need four rules
        var rules = BoundaryRules.of(
                List.of(
                        at("21", "1", "auto", HURTS),
                        at("21", "2", "auto", PAYS_OFF),
                        at("25", "1", "auto", HURTS),
                        at("25", "2", "auto", PAYS_OFF)),
                AXES);
        assertThat(said(rules)).isEqualTo("cpus=1: hurts (2)\ncpus=2: pays off (2)");
        assertThat(rules.get(0).where()).containsExactly(new Clause("cpus", List.of("1")));
    }

    @Test
    void conditionsNoAxisTellsApartKeepEachConclusion() {
        var rules =
                BoundaryRules.of(List.of(at("21", "1", "auto", PAYS_OFF), at("21", "1", "auto", CANNOT_TELL)), AXES);
        assertThat(said(rules)).isEqualTo("everywhere: pays off (1)\neverywhere: cannot tell (1)");
    }

    @Test
    void everyConditionIsInExactlyOneRule() {
        List<Placed<String>> all = new ArrayList<>();
        Conclusion[] cycle = {PAYS_OFF, HURTS, NO_DIFFERENCE, CANNOT_TELL};
        int i = 0;
        for (String jdk : List.of("21", "23", "25")) {
            for (String cpus : List.of("1", "2", "4")) {
                for (String par : List.of("auto", "1", "2")) {
                    all.add(at(jdk, cpus, par, cycle[(i++ * 7) % 4]));
                }
            }
        }
        var rules = BoundaryRules.of(all, AXES);
        assertThat(rules.stream().flatMap(r -> r.conditions().stream()).toList())
                .containsExactlyInAnyOrderElementsOf(all);
        for (Rule<String> r : rules) {
            for (Placed<String> p : r.conditions()) {
                assertThat(p.conclusion()).isEqualTo(r.conclusion());
                for (Clause c : r.where()) {
                    assertThat(c.values()).contains(p.axes().get(c.axis()));
                }
            }
        }
    }
}
