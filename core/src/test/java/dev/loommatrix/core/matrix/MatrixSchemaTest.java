package dev.loommatrix.core.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.loommatrix.core.result.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/** The published JSON Schema (for editors) agrees with the parser (the authority). */
class MatrixSchemaTest {

    static final Path SCHEMA = Path.of("../schemas/matrix.schema.json");

    static JsonNode schemaJson() throws Exception {
        return Json.MAPPER.readTree(SCHEMA.toFile());
    }

    static Set<ValidationMessage> validate(Path yaml) throws Exception {
        JsonSchema schema =
                JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Files.readString(SCHEMA));
        Object data = new Load(LoadSettings.builder().build()).loadFromString(Files.readString(yaml));
        return schema.validate(Json.MAPPER.valueToTree(data));
    }

    @Test
    void validMatricesPassTheSchema() throws Exception {
        assertThat(validate(Path.of("../matrix.yaml"))).isEmpty();
        assertThat(validate(Path.of("src/test/resources/matrices/valid-include-exclude.yaml")))
                .isEmpty();
    }

    @Test
    void aBadMatrixFailsTheSchemaToo() throws Exception {
        assertThat(validate(Path.of("src/test/resources/matrices/many-errors.yaml")))
                .isNotEmpty();
    }

    @Test
    void schemaKeysAreTheParsersKeys() throws Exception {
        JsonNode props = schemaJson().get("properties");
        assertThat(names(props)).containsExactlyInAnyOrderElementsOf(MatrixParser.TOP_KEYS);
        assertThat(names(props.at("/jdks/items/properties"))).containsExactlyInAnyOrderElementsOf(JdkEntries.JDK_KEYS);
        assertThat(names(props.at("/scheduler/properties")))
                .containsExactlyInAnyOrderElementsOf(Sections.SCHEDULER_KEYS);
        List<String> profileKeys = names(props.at("/profiles/additionalProperties/properties"));
        assertThat(profileKeys).containsExactlyInAnyOrderElementsOf(Profiles.PROFILE_KEYS);
        List<String> includeKeys = names(props.at("/include/items/properties"));
        List<String> expected = new ArrayList<>(MatrixParser.AXES);
        expected.addAll(AxisEntries.INCLUDE_EXTRA_KEYS);
        assertThat(includeKeys).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void schemaWorkloadsAreTheCatalogue() throws Exception {
        JsonNode entries = schemaJson().at("/properties/workloads/items/oneOf");
        List<String> ids = new ArrayList<>();
        List<JsonNode> user = new ArrayList<>();
        for (JsonNode entry : entries) {
            if (!entry.at("/properties/id/const").isTextual()) {
                user.add(entry);
                continue;
            }
            String id = entry.at("/properties/id/const").asText();
            ids.add(id);
            assertThat(names(entry.at("/properties/params/properties")))
                    .as(id)
                    .containsExactlyInAnyOrderElementsOf(
                            Workloads.find(id).orElseThrow().defaults().keySet());
        }
        assertThat(ids).containsExactlyElementsOf(Workloads.ids());
        // and the user's own code: a JMH entry, a program entry and a service entry, with the parser's keys
        assertThat(user).hasSize(3);
        List<String> kinds = new ArrayList<>();
        for (JsonNode entry : user) {
            List<String> keys = names(entry.get("properties"));
            assertThat(UserWorkloads.KEYS).containsAll(keys);
            String kind = keys.contains("jmh") ? "jmh" : keys.contains("program") ? "program" : "service";
            kinds.add(kind);
            assertThat(names(entry.at("/properties/" + kind + "/properties")))
                    .as(kind)
                    .containsExactlyInAnyOrderElementsOf(
                            switch (kind) {
                                case "jmh" -> JmhEntries.JMH_KEYS;
                                case "program" -> ProgramEntries.PROGRAM_KEYS;
                                default -> ServiceWorkloads.SERVICE_KEYS;
                            });
            if (kind.equals("service")) {
                assertThat(names(entry.at("/properties/load/properties")))
                        .containsExactlyInAnyOrderElementsOf(ServiceWorkloads.LOAD_KEYS);
                assertThat(names(entry.at("/properties/service/properties/ready/properties")))
                        .containsExactlyInAnyOrderElementsOf(ServiceWorkloads.READY_KEYS);
            }
            List<String> variantKeys = new ArrayList<>(UserVariants.VARIANT_KEYS);
            if (!kind.equals("jmh")) {
                variantKeys.remove("params"); // JMH @Param values only (the parser says so where it is written)
                variantKeys.remove("method"); // a JMH benchmark method, likewise
            }
            if (kind.equals("program")) {
                variantKeys.add("params");
            }
            assertThat(names(entry.at("/properties/variants/additionalProperties/properties")))
                    .as(kind)
                    .containsExactlyInAnyOrderElementsOf(variantKeys);
        }
        assertThat(kinds).containsExactly("jmh", "program", "service");
    }

    @Test
    void theExampleMatrixPassesTheSchema() throws Exception {
        assertThat(validate(Path.of("../examples/jmh-blocking/matrix.yaml"))).isEmpty();
        assertThat(validate(Path.of("../examples/spring-service/matrix.yaml"))).isEmpty();
    }

    static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
