package dev.loommatrix.core.conclude;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.result.CellRecord;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RunConclusionsTest {

    static List<CellRecord> cells(String... files) throws Exception {
        List<CellRecord> out = new ArrayList<>();
        for (String f : files) {
            out.add(FindingsTest.cell(f));
        }
        return out;
    }

    @Test
    void pinningSaysWhereItChangesInOneRuleAJdk() throws Exception {
        RunConclusions run = RunConclusions.of(
                cells("golden/cell-pinning-21.json", "golden/cell-pinning-25.json", "golden/cell-sleep-bound.json"),
                0.10);
        RunConclusions.Subject pinning = run.subjects().stream()
                .filter(s -> s.workload().equals("pinning"))
                .findFirst()
                .orElseThrow();
        assertThat(pinning.rules()).hasSize(2);
        assertThat(pinning.rules().get(0).where()).hasSize(1);
        assertThat(pinning.rules().get(0).where().get(0).axis()).isEqualTo("jdk");
        String md = ConclusionsMarkdown.render(run);
        assertThat(md)
                .contains("### pinning")
                .containsPattern("\\*\\*hurts\\*\\* on \\S+ \\(1 condition, 0\\.127×\\)")
                .containsPattern("\\*\\*no difference\\*\\* on \\S+ \\(1 condition, 1\\.00×\\)")
                .contains("### sleep-bound")
                .containsPattern("\\*\\*pays off\\*\\* everywhere \\(1 condition, 5\\.75×\\)");
    }

    @Test
    void aDisturbedCellIsListedApartAndNeverInARule() throws Exception {
        RunConclusions run = RunConclusions.of(
                cells("golden/cell-sleep-bound.json", "fixtures/records/sleep-bound-disturbed.json"), 0.10);
        RunConclusions.Subject sleep = run.subjects().get(0);
        assertThat(sleep.notValid()).hasSize(1);
        assertThat(sleep.rules()).hasSize(1);
        assertThat(sleep.rules().get(0).conditions()).hasSize(1);
        assertThat(ConclusionsMarkdown.render(run)).contains("- not valid: `").contains("disturbed: measured beside");
    }
}
