package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ParallelSlotsTest {

    @Test
    void theHostsCpusAreSplitIntoDisjointEvenSlots() {
        assertThat(CellPlacement.slots(4, 2)).extracting(Object::toString).containsExactly("0-1", "2-3");
        assertThat(CellPlacement.slots(2, 2)).extracting(Object::toString).containsExactly("0", "1");
        assertThat(CellPlacement.slots(3, 2)).extracting(Object::toString).containsExactly("0", "1-2");
        assertThat(CellPlacement.slots(8, 1)).extracting(Object::toString).containsExactly("0-7");
        assertThatThrownBy(() -> CellPlacement.slots(2, 3)).hasMessageContaining("at least one CPU per cell");
    }
}
