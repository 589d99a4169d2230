package dev.loommatrix.runner.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loommatrix.core.matrix.Matrix;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.ClassFileCheck;
import dev.loommatrix.core.plan.CostModel;
import dev.loommatrix.core.plan.GithubJobs;
import dev.loommatrix.core.plan.Planner;
import dev.loommatrix.core.plan.Shards;
import dev.loommatrix.core.result.Json;
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

    @Option(
            names = "--max-jobs",
            paramLabel = "N",
            description = "github format: at most N jobs; a larger plan becomes balanced shards of cells that"
                    + " need the same runner and JDK set-up. Default: ${DEFAULT-VALUE}, GitHub's limit per matrix.")
    int maxJobs = GithubJobs.MAX_JOBS_PER_MATRIX;

    @Option(
            names = "--runs-on",
            paramLabel = "OS=LABEL",
            description = "github format: the runner for cells of OS (linux, windows) whose JDK entry names none"
                    + " (its runsOn). Default: ubuntu-latest, windows-latest.")
    java.util.Map<String, String> runsOn = new java.util.LinkedHashMap<>();

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Matrix matrix = options.load();
        for (String option : List.of("--max-jobs", "--runs-on")) {
            if (format != Format.github && spec.commandLine().getParseResult().hasMatchedOption(option)) {
                throw new LoomMatrix.UsageException(option + " applies to --format github only");
            }
        }
        for (var runner : runsOn.entrySet()) {
            if (!GithubJobs.HOSTED_RUNNERS.containsKey(runner.getKey())
                    || runner.getValue().isBlank()) {
                throw new LoomMatrix.UsageException("--runs-on " + runner.getKey() + "=" + runner.getValue()
                        + ": expected OS=LABEL with OS one of linux, windows (e.g. --runs-on linux=ubuntu-24.04)");
            }
        }
        List<Cell> cells = select(ClassFileCheck.check(Planner.plan(matrix)), shard);
        PrintWriter out = spec.commandLine().getOut();
        switch (format) {
            case table -> {
                int width = Math.max(
                        70, cells.stream().mapToInt(c -> c.id().length()).max().orElse(0));
                out.printf("%-" + width + "s %8s %8s %s%n", "CELL", "VARIANTS", "EST.", "PARAMS");
                for (Cell cell : cells) {
                    out.printf(
                            "%-" + width + "s %8d %7.0fs %s%n",
                            cell.id(),
                            cell.workload().variants().size(),
                            CostModel.estimateMs(cell) / 1000,
                            what(cell));
                }
                out.printf(
                        "%d cells, estimated %.0f s%n",
                        cells.size(),
                        cells.stream().mapToDouble(CostModel::estimateMs).sum() / 1000);
            }
            case json -> {
                ObjectNode root = Json.MAPPER.createObjectNode();
                ArrayNode list = root.putArray("cells");
                for (Cell cell : cells) {
                    ObjectNode item = list.addObject();
                    item.put("id", cell.id());
                    item.set("coordinates", Json.MAPPER.valueToTree(cell.coordinates()));
                    item.put("estimatedMs", Math.round(CostModel.estimateMs(cell)));
                }
                out.println(Json.MAPPER.writeValueAsString(root));
            }
            case github -> out.println(Json.MAPPER.writeValueAsString(githubMatrix(cells)));
        }
        return ExitCode.OK.code;
    }

    /**
     * A strategy.matrix include list: per job, what it runs (`cells`, space-separated ids) and sets up
     * (`runsOn`, and for cells on the host the `distribution` and `javaVersion` of actions/setup-java),
     * its `name` and `timeoutMinutes`; a job of one cell also carries the cell's axis values.
     */
    private ObjectNode githubMatrix(List<Cell> cells) {
        List<GithubJobs.Job> jobs;
        try {
            jobs = GithubJobs.of(cells, maxJobs, runsOn);
        } catch (IllegalArgumentException e) {
            throw new LoomMatrix.UsageException(e.getMessage());
        }
        ObjectNode root = Json.MAPPER.createObjectNode();
        ArrayNode list = root.putArray("include");
        for (GithubJobs.Job job : jobs) {
            ObjectNode item = list.addObject();
            item.put("name", job.name());
            item.put(
                    "cells", String.join(" ", job.cells().stream().map(Cell::id).toList()));
            if (job.cells().size() == 1) {
                Cell cell = job.cells().get(0);
                item.put("cell", cell.id());
                cell.coordinates().axisValues().forEach(item::put);
            }
            item.put("runsOn", job.runsOn());
            item.put("os", job.os());
            item.put("distribution", job.distribution());
            item.put("javaVersion", job.javaVersion());
            item.put("timeoutMinutes", job.timeoutMinutes());
        }
        return root;
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

    /** A built-in workload's parameters; a user workload's artifact: the JMH benchmarks, or the program. */
    static String what(Cell cell) {
        return cell.workload()
                .user()
                .map(u -> switch (u.artifact()) {
                    case dev.loommatrix.core.matrix.UserWorkload.Jmh jmh ->
                        jmh.jar().getFileName() + ": "
                                + String.join(
                                        ", ",
                                        jmh.benchmarks().stream()
                                                .map(b -> b.substring(b.lastIndexOf('.', b.lastIndexOf('.') - 1) + 1))
                                                .toList());
                    case dev.loommatrix.core.matrix.UserWorkload.Program program ->
                        program.jar()
                                .map(j -> j.getFileName().toString())
                                .orElse(program.mainClass().orElse("program"));
                    case dev.loommatrix.core.matrix.UserWorkload.Service service ->
                        service.jar()
                                        .map(j -> j.getFileName().toString())
                                        .orElse(service.mainClass().orElse("service"))
                                + " under "
                                + String.join(", ", service.load().model().levels()) + ", "
                                + service.load().duration().toSeconds() + " s"
                                + (service.load().model() instanceof dev.loommatrix.core.matrix.ServiceLoad.Capacity c
                                        ? " a window, at most " + c.windows() + " windows a repetition (rates "
                                                + plain(c.from()) + " to " + plain(c.to()) + " requests/s, to "
                                                + Math.round(100 * c.precision()) + " %)"
                                        : "");
                })
                .orElse(new java.util.TreeMap<>(cell.workload().params()).toString()); // stable order for reading
    }

    private static String plain(double rate) {
        return rate == Math.rint(rate) ? String.valueOf((long) rate) : String.valueOf(rate);
    }
}
