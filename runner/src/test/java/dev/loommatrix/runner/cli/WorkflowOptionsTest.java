package dev.loommatrix.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import picocli.CommandLine;

/**
 * The reusable workflows' inputs map onto the CLI (issue #29): every input a workflow declares is used, and every
 * option its scripts, and the scripts of ci/ they run, pass to a loom-matrix command is one that command has — so
 * renaming an option cannot leave a team's nightly calling one that no longer exists.
 */
class WorkflowOptionsTest {

    static final Path ROOT = Path.of(System.getProperty("loom.projectRoot", ".."))
            .toAbsolutePath()
            .normalize();

    /** {@code loom-matrix SUB …}, {@code "$cli" SUB …} or {@code lm SUB …}, with its continuation lines. */
    private static final Pattern CALL = Pattern.compile(
            "(?:loom-matrix|\"\\$cli\"|\\blm) (validate|plan|run|ab|merge|publish|compare|export|init|serve)\\b"
                    + "((?:[^\\n]*\\\\\\n)*[^\\n]*)");

    private static final Pattern OPTION = Pattern.compile("(?<![\\w-])(--[a-z][a-z-]*)");

    @Test
    void everyOptionTheWorkflowsAndTheirScriptsPassIsOneTheCommandHas() throws Exception {
        CommandLine cli = LoomMatrix.commandLine(new String[0], new PrintStream(PrintStream.nullOutputStream()));
        List<Path> sources = new ArrayList<>();
        try (Stream<Path> files = Files.list(ROOT.resolve(".github/workflows"))) {
            files.filter(f -> f.getFileName().toString().startsWith("loom-matrix-"))
                    .forEach(sources::add);
        }
        sources.add(ROOT.resolve("scripts/ci/ab.sh"));
        sources.add(ROOT.resolve("scripts/ci/pipeline.sh"));
        int calls = 0;
        for (Path source : sources) {
            Matcher call = CALL.matcher(Files.readString(source));
            while (call.find()) {
                calls++;
                CommandLine sub = cli.getSubcommands().get(call.group(1));
                assertThat(sub).as(source + ": loom-matrix " + call.group(1)).isNotNull();
                Matcher option = OPTION.matcher(call.group(2));
                while (option.find()) {
                    assertThat(sub.getCommandSpec().findOption(option.group(1)))
                            .as(source.getFileName() + ": loom-matrix " + call.group(1) + " " + option.group(1))
                            .isNotNull();
                }
            }
        }
        assertThat(calls).as("the CLI calls found").isGreaterThanOrEqualTo(10);
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyInputAReusableWorkflowDeclaresIsUsed() throws Exception {
        for (String workflow : List.of("loom-matrix-nightly.yml", "loom-matrix-pr.yml")) {
            String text = Files.readString(ROOT.resolve(".github/workflows").resolve(workflow));
            var root = (Map<String, Object>) new Load(LoadSettings.builder().build()).loadFromString(text);
            var call = (Map<String, Object>) ((Map<String, Object>) root.get("on")).get("workflow_call");
            var inputs = (Map<String, Map<String, Object>>) call.get("inputs");
            assertThat(inputs).as(workflow).containsKeys("matrix", "profile", "build");
            inputs.forEach((name, input) -> {
                assertThat(input).as(workflow + " input " + name).containsKeys("description", "type");
                assertThat(text).as(workflow + " uses input " + name).contains("inputs." + name + " ");
            });
        }
    }
}
