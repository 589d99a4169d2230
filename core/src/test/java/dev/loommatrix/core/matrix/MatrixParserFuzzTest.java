package dev.loommatrix.core.matrix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Property: whatever the text, the parser either returns a matrix or rejects it with problems that
 * each point inside the file — never another exception, never a position outside the text. Inputs are
 * seeded mutations of real matrices (bytes dropped, duplicated, swapped; YAML tokens inserted).
 */
class MatrixParserFuzzTest {

    static final List<String> TOKENS = List.of(
            ":",
            "- ",
            "[",
            "]",
            "{",
            "}",
            "\n",
            "  ",
            "\t",
            "'",
            "\"",
            "&a ",
            "*a",
            "!!int ",
            "0",
            "-1",
            "1.5",
            "auto",
            "pool:",
            "null",
            "~",
            "#",
            ",",
            "? ",
            "|",
            ">",
            "%",
            "@",
            "\u00e9",
            "jdks",
            "cpus",
            // numbers of every size class: past int, past long, with units, as fractions
            "99999999999",
            "99999999999999999999",
            "-99999999999999999999",
            "1e400",
            "0x7f",
            "9999999999g",
            "99999999999999999999s",
            "pool:99999999999",
            "\"5-2\"",
            "\"0-99999\"",
            "18446744073709551616");

    @Test
    void mutatedMatricesNeverCrashTheParser() throws Exception {
        List<String> seeds = List.of(
                Files.readString(Path.of("../matrix.yaml")),
                Files.readString(Path.of("src/test/resources/matrices/valid-include-exclude.yaml")),
                Files.readString(Path.of("src/test/resources/matrices/many-errors.yaml")));
        Random random = new Random(20261121);
        int accepted = 0;
        int rejected = 0;
        for (int i = 0; i < 3000; i++) {
            String text = mutate(seeds.get(i % seeds.size()), random, 1 + random.nextInt(4));
            long lines = text.lines().count() + 1;
            Optional<String> profile =
                    random.nextInt(4) == 0 ? Optional.of(random.nextBoolean() ? "quick" : "small") : Optional.empty();
            try {
                MatrixParser.parse("fuzz.yaml", text, profile, Path.of("fuzz.yaml"));
                accepted++;
            } catch (MatrixException e) {
                rejected++;
                int input = i;
                assertThat(e.problems()).as("input #%d", input).isNotEmpty().allSatisfy(p -> {
                    assertThat(p.line())
                            .as("line in input #%d:\n%s", input, text)
                            .isBetween(1, (int) lines + 1);
                    assertThat(p.column()).isPositive();
                    assertThat(p.format()).startsWith("fuzz.yaml:" + p.line() + ":" + p.column() + ": error: ");
                });
            } catch (RuntimeException e) {
                throw new AssertionError("parser crashed on input #" + i + ":\n" + text, e);
            }
        }
        assertThat(accepted).as("some mutations stay valid").isPositive();
        assertThat(rejected).as("most mutations are rejected").isGreaterThan(accepted);
    }

    /**
     * The same property on bytes that are not UTF-8 (Latin-1 letters, lone continuation bytes, truncated
     * sequences, a UTF-16 byte-order mark) spliced into real matrices and read from a file, as users do.
     */
    @Test
    void bytesThatAreNotUtf8AreOneClearProblemNeverACrash(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        byte[] seed = Files.readAllBytes(Path.of("../matrix.yaml"));
        byte[][] bad = {
            {(byte) 0xE9}, {(byte) 0x80}, {(byte) 0xC3}, {(byte) 0xF0, (byte) 0x9F}, {(byte) 0xFF, (byte) 0xFE}
        };
        Random random = new Random(20261123);
        Path file = tmp.resolve("matrix.yaml");
        for (int i = 0; i < 200; i++) {
            byte[] insert = bad[random.nextInt(bad.length)];
            int at = random.nextInt(seed.length);
            byte[] text = new byte[seed.length + insert.length];
            System.arraycopy(seed, 0, text, 0, at);
            System.arraycopy(insert, 0, text, at, insert.length);
            System.arraycopy(seed, at, text, at + insert.length, seed.length - at);
            Files.write(file, text);
            int input = i;
            try {
                MatrixParser.parse(file, Optional.empty());
                throw new AssertionError("input #" + input + " is not UTF-8 but was accepted");
            } catch (MatrixException e) {
                assertThat(e.problems()).as("input #%d", input).singleElement().satisfies(p -> {
                    assertThat(p.message()).startsWith("the file is not UTF-8");
                    assertThat(p.line()).isPositive();
                    assertThat(p.column()).isPositive();
                });
            }
        }
    }

    static String mutate(String text, Random random, int edits) {
        StringBuilder s = new StringBuilder(text);
        for (int e = 0; e < edits && s.length() > 1; e++) {
            int at = random.nextInt(s.length());
            switch (random.nextInt(4)) {
                case 0 -> s.deleteCharAt(at);
                case 1 -> s.insert(at, TOKENS.get(random.nextInt(TOKENS.size())));
                case 2 -> {
                    int len = Math.min(1 + random.nextInt(20), s.length() - at);
                    s.insert(at, s.substring(at, at + len));
                }
                default -> {
                    int other = random.nextInt(s.length());
                    char c = s.charAt(at);
                    s.setCharAt(at, s.charAt(other));
                    s.setCharAt(other, c);
                }
            }
        }
        return s.toString();
    }
}
