package dev.loommatrix.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ParamsTest {

    @Test
    void givenValuesOverrideDefaults() {
        Params p = Params.of(Map.of("tasks", 10L, "sleepMs", 5L), Map.of("tasks", "20"));
        assertThat(p.get("tasks")).isEqualTo(20);
        assertThat(p.get("sleepMs")).isEqualTo(5);
    }

    @Test
    void unknownNegativeAndNonNumericValuesAreRejected() {
        Map<String, Long> defaults = Map.of("tasks", 10L);
        assertThatThrownBy(() -> Params.of(defaults, Map.of("task", "1")))
                .hasMessageContaining("unknown parameter 'task'");
        assertThatThrownBy(() -> Params.of(defaults, Map.of("tasks", "-1")))
                .hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> Params.of(defaults, Map.of("tasks", "ten"))).hasMessageContaining("whole number");
    }
}
