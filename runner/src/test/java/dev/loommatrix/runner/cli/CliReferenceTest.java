package dev.loommatrix.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command-line reference's synopsis (docs/cli.md) and {@code --help} say the same (issue #29): every option a
 * subcommand takes is in its synopsis lines and every option there is one it takes; and each option says what it
 * does.
 */
class CliReferenceTest {

    /** The page whose "Synopsis" block is checked: the working directory of the tests is runner/. */
    static final Path PAGE = Path.of("../docs/cli.md");

    /** Options every subcommand inherits from the top command; the page says so once, not per line. */
    static final Set<String> INHERITED = Set.of("--help", "--version", "--verbose");

    @Test
    void theSynopsisListsExactlyTheOptionsEachCommandTakes() throws Exception {
        Map<String, Set<String>> written = synopsis(Files.readString(PAGE));
        CommandLine cli = LoomMatrix.commandLine(new String[0], new PrintStream(PrintStream.nullOutputStream()));
        List<String> problems = new ArrayList<>();
        for (var entry : cli.getSubcommands().entrySet()) {
            String name = entry.getKey();
            if (name.equals("help")) {
                continue;
            }
            Set<String> taken = new TreeSet<>();
            for (CommandLine.Model.OptionSpec option :
                    entry.getValue().getCommandSpec().options()) {
                if (!INHERITED.contains(option.longestName())) {
                    taken.add(option.longestName());
                    if (String.join("", option.description()).isBlank()) {
                        problems.add(name + " " + option.longestName() + " has no description in --help");
                    }
                }
            }
            Set<String> lines = written.getOrDefault(name, Set.of());
            for (String option : taken) {
                if (!lines.contains(option)) {
                    problems.add(name + " " + option + " is in --help but not in " + PAGE + "'s synopsis");
                }
            }
            for (String option : lines) {
                if (!taken.contains(option)) {
                    problems.add(name + " " + option + " is in " + PAGE + "'s synopsis but not an option");
                }
            }
        }
        assertThat(written.keySet())
                .containsExactlyInAnyOrderElementsOf(cli.getSubcommands().keySet().stream()
                        .filter(n -> !n.equals("help"))
                        .toList());
        assertThat(problems).isEmpty();
    }

    /** The options of each command's lines in the page's "Synopsis" block (continuation lines included). */
    static Map<String, Set<String>> synopsis(String page) {
        int section = page.indexOf("## Synopsis");
        assertThat(section).as(PAGE + " has a \"## Synopsis\" section").isNotNegative();
        int start = page.indexOf("```\n", section) + 4;
        String block = page.substring(start, page.indexOf("```", start));
        Map<String, Set<String>> out = new LinkedHashMap<>();
        String current = null;
        Pattern command = Pattern.compile("^loom-matrix (\\S+)");
        Pattern option = Pattern.compile("(--[a-z][a-z0-9-]*)");
        for (String line : block.split("\n")) {
            Matcher m = command.matcher(line);
            if (m.find()) {
                current = m.group(1);
                out.put(current, new LinkedHashSet<>());
            }
            if (current != null) {
                Matcher o = option.matcher(line);
                while (o.find()) {
                    out.get(current).add(o.group(1));
                }
            }
        }
        return out;
    }
}
