package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ParallelSlotsTest {

    @Test
    void theHostsCpusAreSplitIntoDisjointEvenSlots() {
        assertThat(Placement.slots(4, 2)).extracting(Object::toString).containsExactly("0-1", "2-3");
        assertThat(Placement.slots(2, 2)).extracting(Object::toString).containsExactly("0", "1");
        assertThat(Placement.slots(3, 2)).extracting(Object::toString).containsExactly("0", "1-2");
        assertThat(Placement.slots(8, 1)).extracting(Object::toString).containsExactly("0-7");
        assertThatThrownBy(() -> Placement.slots(2, 3)).hasMessageContaining("at least one CPU per cell");
    }
}
