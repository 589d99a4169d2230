package dev.loommatrix.runner.ab;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.CellRecord;
import dev.loommatrix.core.result.CellStatus;
import dev.loommatrix.core.result.EnvironmentRecord;
import dev.loommatrix.core.result.Interference;
import dev.loommatrix.core.result.Measurement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;

/**
 * A side's record of a cell from its blocks' records: every series' samples one after another with their block
 * numbers, so compare pairs block k of one side with block k of the other. A pure function of the records.
 */
final class BlockMerge {

    private BlockMerge() {}

    /**
     * The merged record, and whether the side's blocks were all there and none failed (skipped is not failed, issue
     * #32: a cell this host cannot run fails no check, as in run).
     */
    record Merged(CellRecord record, boolean ok) {}

    /**
     * The side's record of a cell from its first {@code pairs} blocks ({@code blocks}: block number → its record, a
     * block without one left out): ok when every block was, else the first trouble's status and reason. The
     * environment shown is the first that was not attested, else the first block's. Empty when no block has a record.
     */
    static Optional<Merged> merge(Cell cell, SortedMap<Integer, CellRecord> blocks, int pairs) {
        if (blocks.isEmpty()) {
            return Optional.empty();
        }
        List<CellRecord> records = List.copyOf(blocks.values());
        List<Integer> numbers = List.copyOf(blocks.keySet());
        CellRecord trouble = records.stream()
                .filter(r -> r.status() != CellStatus.OK)
                .findFirst()
                .orElse(null);
        CellRecord first = records.get(0);
        CellRecord source = trouble != null ? trouble : first;
        CellRecord merged = CellRecord.of(
                cell.id(),
                cell.coordinates(),
                source.status(),
                // which block failed helps; a cell this host cannot run is skipped in every block alike
                source.reason()
                        .map(r -> source.status() == CellStatus.SKIPPED
                                ? r
                                : "block " + numbers.get(records.indexOf(source)) + ": " + r),
                source.logTail(),
                environment(records),
                measurements(cell, records, numbers),
                execution(records, numbers),
                first.baseline(),
                first.contrast());
        return Optional.of(
                new Merged(merged, (trouble == null || !trouble.status().isFailure()) && records.size() == pairs));
    }

    /** Each series' samples, block after block, the blocks numbered (a user workload's own metric kept). */
    private static List<Measurement> measurements(Cell cell, List<CellRecord> records, List<Integer> numbers) {
        Map<String, List<Measurement>> bySeries = new LinkedHashMap<>();
        Map<String, List<Integer>> blocksOf = new LinkedHashMap<>();
        for (int i = 0; i < records.size(); i++) {
            for (Measurement m : records.get(i).measurements()) {
                bySeries.computeIfAbsent(m.series(), s -> new ArrayList<>()).add(m);
                blocksOf.computeIfAbsent(m.series(), s -> new ArrayList<>()).add(numbers.get(i));
            }
        }
        String summarized = cell.workload().user().isPresent() ? null : "wallMs";
        List<Measurement> measurements = new ArrayList<>();
        bySeries.forEach((series, parts) -> measurements.add(Measurement.ofBlocks(
                blocksOf.get(series),
                parts,
                summarized != null ? summarized : parts.get(0).metric().name())));
        return measurements;
    }

    /** The first environment that was not attested, else the first block's. */
    private static Optional<EnvironmentRecord> environment(List<CellRecord> records) {
        return records.stream()
                .flatMap(r -> r.environment().stream())
                .filter(e -> !e.attested())
                .findFirst()
                .or(records.get(0)::environment);
    }

    /** The blocks' executions as one: from the first's start to the last's end, their durations summed. */
    private static CellRecord.Execution execution(List<CellRecord> records, List<Integer> numbers) {
        CellRecord first = records.get(0);
        CellRecord last = records.get(records.size() - 1);
        return new CellRecord.Execution(
                first.execution().backend(),
                first.execution().driver() + "; A/B: " + records.size() + " blocks of one repetition per variant",
                first.execution().startedAt(),
                last.execution().finishedAt(),
                records.stream().mapToLong(r -> r.execution().durationMs()).sum(),
                first.execution().variantOrder(),
                first.execution().fallbackReason(),
                Optional.empty(),
                List.of(),
                records.stream()
                        .flatMap(r -> r.execution().leftBehind().stream())
                        .toList(),
                mostDisturbed(records, numbers));
    }

    /**
     * The side's interference over its blocks (issue #32): the block with the most other work, its flag naming the
     * block — one disturbed block is enough to say so of the side.
     */
    static Optional<Interference> mostDisturbed(List<CellRecord> records, List<Integer> numbers) {
        int worst = -1;
        for (int i = 0; i < records.size(); i++) {
            var it = records.get(i).execution().interference();
            if (it.isPresent()
                    && (worst < 0
                            || it.get().otherCpusMean()
                                    > records.get(worst)
                                            .execution()
                                            .interference()
                                            .orElseThrow()
                                            .otherCpusMean())) {
                worst = i;
            }
        }
        if (worst < 0) {
            return Optional.empty();
        }
        var it = records.get(worst).execution().interference().orElseThrow();
        String block = "block " + numbers.get(worst) + " of " + records.size() + ": ";
        return Optional.of(new Interference(
                block + it.source(),
                it.everyMs(),
                it.otherCpusMean(),
                it.otherCpusMax(),
                it.thresholdCpus(),
                it.stealCpusMean(),
                it.throttledMs(),
                it.cpuPressureMean(),
                it.cpuMhz(),
                it.series(),
                it.unavailable(),
                it.disturbed().map(d -> block + d)));
    }
}
