package dev.loommatrix.runner.backend;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.EnvironmentRecord;
import dev.loommatrix.core.result.Measurement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Builds a cell's outcome from its raw directory and how its process ended; shared by both backends. */
public final class CellAssembler {

    /** How the cell's process (container or host JVMs) ended. */
    public sealed interface Ending {
        record Completed() implements Ending {}

        record Crashed(String reason, String logTail) implements Ending {}

        record TimedOut(String reason, String logTail) implements Ending {}
    }

    private CellAssembler() {}

    /** How a variant's error starts when its numbers were made but cannot be trusted (see {@link CellOutcome.Invalid}). */
    static final String INVALID = "invalid: ";

    public static CellOutcome assemble(
            Cell cell,
            Path rawDir,
            List<String> variantOrder,
            Map<String, String> variantErrors,
            Attestation.Expectation expected,
            Optional<String> image,
            Optional<String> imageDigest,
            Ending ending) {
        List<Measurement> measurements = new ArrayList<>();
        Map<String, String> errors = new java.util.LinkedHashMap<>();
        variantErrors.forEach((variant, error) -> errors.put(
                variant,
                jvmSaid(rawDir, variant)
                        .map(said -> error + "; the JVM said: " + said)
                        .orElse(error)));
        String readProblem = null;
        Optional<EnvironmentRecord> environment;
        if (cell.workload().user().isPresent()) {
            List<UserResults.VariantRuns> runs = new ArrayList<>();
            for (String variant : cell.workload().variants()) {
                try {
                    UserResults.VariantRuns variantRuns = UserResults.read(rawDir, variant, cell.warmup());
                    runs.add(variantRuns);
                    UserResults.Result result =
                            UserResults.measurements(cell, variantRuns, Optional.ofNullable(errors.get(variant)));
                    measurements.addAll(result.measurements());
                    result.problem().ifPresent(p -> errors.putIfAbsent(variant, p));
                } catch (IOException | RuntimeException e) {
                    readProblem = "could not read results of variant " + variant + ": " + e.getMessage();
                }
            }
            environment = attestEveryJvm(cell, UserResults.environments(runs), expected, image, imageDigest, rawDir);
        } else {
            List<RawResults.VariantData> data = new ArrayList<>();
            for (String variant : cell.workload().variants()) {
                try {
                    RawResults.VariantData variantData = RawResults.read(rawDir, variant, cell.warmup());
                    data.add(variantData);
                    if (!variantData.records().isEmpty()
                            || variantData.problem().isPresent()
                            || variantErrors.containsKey(variant)) {
                        measurements.add(
                                RawResults.measurement(cell, variantData, Optional.ofNullable(errors.get(variant))));
                    }
                } catch (IOException | RuntimeException e) {
                    readProblem = "could not read results of variant " + variant + ": " + e.getMessage();
                }
            }
            environment = RawResults.firstEnvironment(data)
                    .map(env -> Attestation.environment(
                            cell, env, expected, image, imageDigest, javaVersionOutput(rawDir)));
        }
        return switch (ending) {
            case Ending.TimedOut t -> new CellOutcome.TimedOut(t.reason(), t.logTail(), measurements, environment);
            case Ending.Crashed c -> new CellOutcome.Failed(c.reason(), c.logTail(), measurements, environment);
            case Ending.Completed c -> {
                List<String> failedVariants = cell.workload().variants().stream()
                        .filter(v -> errors.containsKey(v)
                                || measurements.stream()
                                        .noneMatch(m -> m.variant().equals(v)
                                                && m.error().isEmpty()))
                        .toList();
                if (readProblem != null || environment.isEmpty() || !failedVariants.isEmpty()) {
                    List<String> problems = new ArrayList<>();
                    if (!failedVariants.isEmpty()) {
                        problems.add("variant(s) failed: "
                                + failedVariants.stream()
                                        .map(v -> errors.containsKey(v) ? v + " (" + errors.get(v) + ")" : v)
                                        .collect(java.util.stream.Collectors.joining(", ")));
                    }
                    if (environment.isEmpty()) {
                        problems.add("no JVM run produced a record");
                    }
                    if (readProblem != null) {
                        problems.add(readProblem);
                    }
                    String reason = String.join("; ", problems);
                    boolean onlyInvalid = readProblem == null
                            && environment.isPresent()
                            && failedVariants.stream()
                                    .allMatch(v -> errors.containsKey(v)
                                            && errors.get(v).startsWith(INVALID));
                    if (onlyInvalid) {
                        yield new CellOutcome.Invalid(
                                failedVariants.stream()
                                        .map(v -> v + ": " + errors.get(v))
                                        .collect(java.util.stream.Collectors.joining("; ")),
                                measurements,
                                environment.get());
                    }
                    yield new CellOutcome.Failed(reason, logTail(rawDir), measurements, environment);
                }
                yield new CellOutcome.Succeeded(measurements, environment.get());
            }
        };
    }

    /**
     * A user cell's JVMs are all checked — every run of every variant, JMH forks too — and the record
     * shows the first that did not get what the cell asked for, else the first.
     */
    private static Optional<EnvironmentRecord> attestEveryJvm(
            Cell cell,
            List<HarnessEnvironment> environments,
            Attestation.Expectation expected,
            Optional<String> image,
            Optional<String> imageDigest,
            Path rawDir) {
        Optional<String> javaVersion = javaVersionOutput(rawDir);
        EnvironmentRecord first = null;
        for (HarnessEnvironment env : environments) {
            EnvironmentRecord record = Attestation.environment(cell, env, expected, image, imageDigest, javaVersion);
            if (!record.attested()) {
                return Optional.of(record);
            }
            if (first == null) {
                first = record;
            }
        }
        return Optional.ofNullable(first);
    }

    /** The driver's own lines in the cell log, around what the JVMs printed. */
    private static final java.util.regex.Pattern DRIVER_LINE = java.util.regex.Pattern.compile(
            "^(Benchmark \\d+:|\\s*Time \\(|\\s*Range \\(|\\s*Warning:|Error: Command terminated|loom: ).*|^\\s*$");

    /**
     * What a failed variant's JVM printed last before it exited — e.g. {@code Unrecognized VM option
     * 'X'} and {@code Could not create the Java Virtual Machine} for a flag the JDK rejects, or the end of
     * an exception — read from the variant's part of the cell log.
     */
    static Optional<String> jvmSaid(Path rawDir, String variant) {
        Path log = rawDir.resolve("cell.log");
        try {
            if (!Files.isRegularFile(log)) {
                return Optional.empty();
            }
            List<String> section = new ArrayList<>();
            boolean inside = false;
            for (String line : Files.readAllLines(log)) {
                if (line.startsWith("loom: variant ")) {
                    inside = line.equals("loom: variant " + variant);
                    continue;
                }
                if (inside) {
                    if (line.startsWith("Error: Command terminated")) {
                        break;
                    }
                    if (!DRIVER_LINE.matcher(line).matches()) {
                        section.add(line.strip());
                    }
                }
            }
            return section.isEmpty()
                    ? Optional.empty()
                    : Optional.of(String.join(" / ", section.subList(Math.max(0, section.size() - 3), section.size())));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** What {@code java -version} printed in the cell, if the backend recorded it. */
    static Optional<String> javaVersionOutput(Path rawDir) {
        Path file = rawDir.resolve(CellScript.JAVA_VERSION_FILE);
        try {
            return Files.isRegularFile(file)
                    ? Optional.of(Files.readString(file).strip())
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The last lines of the cell's log, for a failure's record. */
    static String logTail(Path rawDir) {
        Path log = rawDir.resolve("cell.log");
        try {
            if (Files.isRegularFile(log)) {
                List<String> lines = Files.readAllLines(log);
                return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
            }
        } catch (IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
        return "";
    }
}
