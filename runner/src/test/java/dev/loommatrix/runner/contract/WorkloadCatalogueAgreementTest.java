package dev.loommatrix.runner.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.Workloads;
import dev.loommatrix.harness.workload.Catalogue;
import org.junit.jupiter.api.Test;

/**
 * The runner and the harness each carry the catalogue (they share files, never classes, at run time);
 * this test, which sees both, keeps them in agreement for every workload the harness implements.
 */
class WorkloadCatalogueAgreementTest {

    @Test
    void everyHarnessWorkloadHasTheSameParametersAndDefaultsInTheRunner() {
        assertThat(Catalogue.all()).isNotEmpty().allSatisfy(w -> {
            Workloads.Definition def = Workloads.find(w.id()).orElseThrow();
            assertThat(def.defaults()).as(w.id()).isEqualTo(w.defaults());
            for (String variant : w.variants()) {
                if (!variant.equals("pool:*")) {
                    assertThat(def.accepts(variant)).as(w.id() + " " + variant).isTrue();
                }
            }
            assertThat(def.pools()).as(w.id() + " pools").isEqualTo(w.variants().contains("pool:*"));
        });
    }
}
