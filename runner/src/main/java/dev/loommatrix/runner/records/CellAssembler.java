package dev.loommatrix.runner.records;

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
        Map<String, String> errors = new java.util.LinkedHashMap<>();
        variantErrors.forEach((variant, error) -> errors.put(
                variant,
                jvmSaid(rawDir, variant)
                        .map(said -> error + "; the JVM said: " + said)
                        .orElse(error)));
        Read read = cell.workload().user().isPresent()
                ? readUserCell(cell, rawDir, errors, expected, image, imageDigest)
                : readHarnessCell(cell, rawDir, variantErrors.keySet(), errors, expected, image, imageDigest);
        return switch (ending) {
            case Ending.TimedOut t ->
                new CellOutcome.TimedOut(t.reason(), t.logTail(), read.measurements(), read.environment());
            case Ending.Crashed c ->
                new CellOutcome.Failed(c.reason(), c.logTail(), read.measurements(), read.environment());
            case Ending.Completed c -> completed(cell, rawDir, read, errors);
        };
    }

    /**
     * What the raw directory gave: the variants' measurements, their environment as attested, and why some of it
     * could not be read, if so ({@code errors} learns each variant's own problems).
     */
    private record Read(
            List<Measurement> measurements, Optional<EnvironmentRecord> environment, Optional<String> readProblem) {}

    /** A user workload's variants, read by their formats; every JVM attested, each variant's switch judged. */
    private static Read readUserCell(
            Cell cell,
            Path rawDir,
            Map<String, String> errors,
            Attestation.Expectation expected,
            Optional<String> image,
            Optional<String> imageDigest) {
        List<Measurement> measurements = new ArrayList<>();
        String readProblem = null;
        List<VariantRuns> runs = new ArrayList<>();
        for (String variant : cell.workload().variants()) {
            try {
                VariantRuns variantRuns = AgentLines.read(rawDir, variant, cell.warmup());
                runs.add(variantRuns);
                UserResults.Result result =
                        UserResults.measurements(cell, variantRuns, Optional.ofNullable(errors.get(variant)));
                measurements.addAll(result.measurements());
                result.problem().ifPresent(p -> errors.putIfAbsent(variant, p));
            } catch (IOException | RuntimeException e) {
                readProblem = "could not read results of variant " + variant + ": " + e.getMessage();
            }
        }
        // each variant's own switch, attested like the cell's settings; one that changed nothing is invalid
        VariantSwitches.Judgement switches = VariantSwitches.judge(cell, runs);
        switches.changedNothing().forEach((variant, why) -> errors.putIfAbsent(variant, INVALID + why));
        Optional<EnvironmentRecord> environment = attestEveryJvm(
                        cell, AgentLines.environments(runs), expected, image, imageDigest, rawDir)
                .map(env -> env.withChecks(switches.checks()));
        return new Read(measurements, environment, Optional.ofNullable(readProblem));
    }

    /** A built-in workload's variants, from the harness's records; the first JVM's environment attested. */
    private static Read readHarnessCell(
            Cell cell,
            Path rawDir,
            java.util.Set<String> failed,
            Map<String, String> errors,
            Attestation.Expectation expected,
            Optional<String> image,
            Optional<String> imageDigest) {
        List<Measurement> measurements = new ArrayList<>();
        String readProblem = null;
        List<RawResults.VariantData> data = new ArrayList<>();
        for (String variant : cell.workload().variants()) {
            try {
                RawResults.VariantData variantData = RawResults.read(rawDir, variant, cell.warmup());
                data.add(variantData);
                if (!variantData.records().isEmpty() || variantData.problem().isPresent() || failed.contains(variant)) {
                    Measurement measured =
                            RawResults.measurement(cell, variantData, Optional.ofNullable(errors.get(variant)));
                    measurements.add(measured);
                    // numbers made but not to be trusted (a footprint below zero): the variant is invalid
                    measured.error().filter(e -> e.startsWith(INVALID)).ifPresent(e -> errors.putIfAbsent(variant, e));
                }
            } catch (IOException | RuntimeException e) {
                readProblem = "could not read results of variant " + variant + ": " + e.getMessage();
            }
        }
        Optional<EnvironmentRecord> environment = RawResults.firstEnvironment(data)
                .map(env ->
                        Attestation.environment(cell, env, expected, image, imageDigest, javaVersionOutput(rawDir)));
        return new Read(measurements, environment, Optional.ofNullable(readProblem));
    }

    /**
     * A cell that ran to its end: succeeded when every variant measured without error and a JVM was attested;
     * invalid when its only trouble is numbers not to be trusted; else failed, saying every problem.
     */
    private static CellOutcome completed(Cell cell, Path rawDir, Read read, Map<String, String> errors) {
        List<Measurement> measurements = read.measurements();
        Optional<EnvironmentRecord> environment = read.environment();
        List<String> failedVariants = cell.workload().variants().stream()
                .filter(v -> errors.containsKey(v)
                        || measurements.stream()
                                .noneMatch(
                                        m -> m.variant().equals(v) && m.error().isEmpty()))
                .toList();
        if (read.readProblem().isEmpty() && environment.isPresent() && failedVariants.isEmpty()) {
            return new CellOutcome.Succeeded(measurements, environment.get());
        }
        boolean onlyInvalid = read.readProblem().isEmpty()
                && environment.isPresent()
                && failedVariants.stream()
                        .allMatch(v -> errors.containsKey(v) && errors.get(v).startsWith(INVALID));
        if (onlyInvalid) {
            return new CellOutcome.Invalid(
                    failedVariants.stream()
                            .map(v -> v + ": " + errors.get(v))
                            .collect(java.util.stream.Collectors.joining("; ")),
                    measurements,
                    environment.get());
        }
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
        read.readProblem().ifPresent(problems::add);
        return new CellOutcome.Failed(String.join("; ", problems), logTail(rawDir), measurements, environment);
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
            return whatWentWrong(section);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** An exception's first line as the JVM, JMH or a logger prints it: its class, then its message. */
    private static final java.util.regex.Pattern EXCEPTION = java.util.regex.Pattern.compile(
            "^(?:Exception in thread \"[^\"]*\" |Caused by: )?((?:[a-zA-Z_$][\\w$]*\\.)+(?:[A-Z][\\w$]*)?(?:Exception|Error|Throwable)\\b.*)$");

    /** A stack frame ({@code at java.base/…}) or the "... 12 more" after a cause's frames. */
    private static final java.util.regex.Pattern FRAME =
            java.util.regex.Pattern.compile("^(at |\\.\\.\\. \\d+ more).*");

    /**
     * What a failed JVM's output says went wrong, leading with it (issue #32: a JMH suite that rejected a
     * {@code @Param} value was reported as three stack frames while its log held the exception): the first
     * exception and its message (with its deepest cause's, when one follows) and then its first two frames; else
     * the JVM's own {@code Error:} line (a main class not found, a VM option refused) with the line before it and
     * the one after; else the last three lines.
     */
    public static Optional<String> whatWentWrong(List<String> lines) {
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        for (int i = 0; i < lines.size(); i++) {
            var exception = EXCEPTION.matcher(lines.get(i));
            if (exception.matches() && !lines.get(i).startsWith("Caused by: ")) {
                List<String> said = new ArrayList<>();
                said.add(exception.group(1));
                String deepestCause = null;
                List<String> frames = new ArrayList<>();
                for (int j = i + 1; j < lines.size(); j++) {
                    String line = lines.get(j);
                    if (line.startsWith("Caused by: ")) {
                        deepestCause = line.substring("Caused by: ".length());
                    } else if (FRAME.matcher(line).matches()) {
                        if (deepestCause == null && frames.size() < 2 && line.startsWith("at ")) {
                            frames.add(line);
                        }
                    } else if (deepestCause != null || !frames.isEmpty()) {
                        break; // the trace ended
                    }
                }
                if (deepestCause != null) {
                    said.set(0, said.get(0) + " (caused by " + deepestCause + ")");
                }
                said.addAll(frames);
                return Optional.of(String.join(" / ", said));
            }
        }
        // the JVM's first Error: line with the line before it (an "Unrecognized VM option" precedes "Could not create
        // the Java Virtual Machine"), else the last three lines
        int error = -1;
        for (int i = 0; i < lines.size() && error < 0; i++) {
            error = lines.get(i).startsWith("Error: ") ? i : -1;
        }
        int from = error < 0 ? Math.max(0, lines.size() - 3) : Math.max(0, error - 1);
        return Optional.of(String.join(" / ", lines.subList(from, Math.min(lines.size(), from + 3))));
    }

    /** What {@code java -version} printed in the cell, if the backend recorded it. */
    static Optional<String> javaVersionOutput(Path rawDir) {
        Path file = rawDir.resolve(CellFiles.JAVA_VERSION_FILE);
        try {
            return Files.isRegularFile(file)
                    ? Optional.of(Files.readString(file).strip())
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The last lines of the cell's log, for a failure's record. */
    public static String logTail(Path rawDir) {
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
