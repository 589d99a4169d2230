package dev.loommatrix.runner.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loommatrix.runner.matrix.Matrix;
import dev.loommatrix.runner.plan.Cell;
import dev.loommatrix.runner.plan.CostModel;
import dev.loommatrix.runner.plan.Planner;
import dev.loommatrix.runner.plan.Shards;
import dev.loommatrix.runner.result.Json;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "plan", description = "List the cells a matrix expands to (optionally one shard of them).")
final class PlanCommand implements Callable<Integer> {

    enum Format {
        table,
        json,
        github
    }

    @Mixin
    MatrixOptions options;

    @Option(names = "--shard", paramLabel = "I/N", description = "Only shard I of N (balanced by estimated run time).")
    String shard;

    @Option(
            names = "--format",
            defaultValue = "table",
            description = "table, json, or github (a strategy.matrix include list). Default: ${DEFAULT-VALUE}.")
    Format format;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Matrix matrix = options.load();
        List<Cell> cells = select(Planner.plan(matrix), shard);
        PrintWriter out = spec.commandLine().getOut();
        switch (format) {
            case table -> {
                out.printf("%-70s %8s %8s %s%n", "CELL", "VARIANTS", "EST.", "PARAMS");
                for (Cell cell : cells) {
                    out.printf(
                            "%-70s %8d %7.0fs %s%n",
                            cell.id(),
                            cell.workload().variants().size(),
                            CostModel.estimateMs(cell) / 1000,
                            new java.util.TreeMap<>(cell.workload().params())); // stable order for reading
                }
                out.printf(
                        "%d cells, estimated %.0f s%n",
                        cells.size(),
                        cells.stream().mapToDouble(CostModel::estimateMs).sum() / 1000);
            }
            case json, github -> {
                ObjectNode root = Json.MAPPER.createObjectNode();
                ArrayNode list = root.putArray(format == Format.json ? "cells" : "include");
                for (Cell cell : cells) {
                    ObjectNode item = list.addObject();
                    if (format == Format.json) {
                        item.put("id", cell.id());
                        item.set("coordinates", Json.MAPPER.valueToTree(cell.coordinates()));
                        item.put("estimatedMs", Math.round(CostModel.estimateMs(cell)));
                    } else {
                        item.put("cell", cell.id());
                        cell.coordinates().axisValues().forEach(item::put);
                        // what a workflow job needs to run the cell: the runner image, and for cells
                        // run on the host (Windows), the JDK that actions/setup-java installs
                        item.put(
                                "runsOn",
                                cell.coordinates().os().equals("windows") ? "windows-latest" : "ubuntu-latest");
                        item.put("distribution", cell.jdk().setupJava().getOrDefault("distribution", ""));
                        item.put("javaVersion", cell.jdk().setupJava().getOrDefault("java-version", ""));
                    }
                }
                out.println(Json.MAPPER.writeValueAsString(root));
            }
        }
        return ExitCode.OK.code;
    }

    static List<Cell> select(List<Cell> cells, String shard) {
        if (shard == null) {
            return cells;
        }
        try {
            return Shards.select(cells, Shards.Shard.parse(shard));
        } catch (IllegalArgumentException e) {
            throw new LoomMatrix.UsageException(e.getMessage());
        }
    }
}
