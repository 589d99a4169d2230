package dev.loommatrix.runner.ab;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loommatrix.core.matrix.Iterations;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.Json;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.host.CellCpu;
import dev.loommatrix.runner.records.Attestation;
import dev.loommatrix.runner.records.CellAssembler;
import dev.loommatrix.runner.records.CellFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A backend that runs no JVM: for each fork it writes the harness record a real fork writes ({@code
 * <variant>.records.jsonl}, the environment block of a real container fork's, and the driver's timings), with
 * numbers drawn from a seeded model of the cell, and moves a scripted clock by what the fork would have taken. The
 * cell's outcome is then assembled from those files by the real readers ({@link CellAssembler}), so everything
 * after the engine — the block runs, merging, compare, the looks, the budget — is the product's own.
 *
 * <p>The model of one fork of block k: the cell's median × (1 + effect, on the candidate's side only) × a drift
 * shared by both sides of pair k (the machine's phase, which pairing cancels) × the fork's own spread between JVMs;
 * each of its iterations spreads around that, its first one a cold start. The draws depend on the run's seed, the
 * cell, the block and the side only, so a run is reproduced exactly.
 */
final class FakeBackend implements Backend {

    /**
     * One cell on this fake machine (by its workload's id).
     *
     * @param medianMs a fork's steady state on the baseline's side
     * @param effect the candidate's change: its forks take (1 + effect) times as long
     * @param forkSigma the spread of a fork's steady state between JVMs (log scale)
     * @param iterationSigma the spread of a fork's iterations around its steady state (log scale)
     * @param driftSigma the machine's drift from pair to pair, shared by both sides of a pair (log scale)
     * @param perFork what a fork (a fresh JVM, its container, its iterations) takes on the clock
     */
    record CellModel(
            double medianMs,
            double effect,
            double forkSigma,
            double iterationSigma,
            double driftSigma,
            Duration perFork) {

        CellModel withEffect(double change) {
            return new CellModel(medianMs, change, forkSigma, iterationSigma, driftSigma, perFork);
        }
    }

    /** One block this backend ran: which cell, which pair and side, which variants, when it ended. */
    record Ran(String cellId, int pair, String side, List<String> variants) {}

    /** The environment a real JVM reported, in a 1-CPU container with 1 GiB and 20,000 pids (a recorded fork's). */
    static final Path ENVIRONMENT_FIXTURE = Path.of(
            "src/test/resources/fixtures/raw/container-hotspot25-cpus1-sleep-bound-iterated/virtual.records.jsonl");

    private static final JsonNode ENVIRONMENT = readEnvironment();

    /** A record is one line of JSON, as the harness writes it. */
    private static final com.fasterxml.jackson.databind.ObjectWriter ONE_LINE =
            Json.MAPPER.writer().without(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT);

    /** What the backend arranged, so what the fixture's JVM reported: attested as a real container cell is. */
    private static final Attestation.Expectation EXPECTED = new Attestation.Expectation(
            1,
            "hotspot derives processors from the quota 1 rounded up",
            Optional.of(BigDecimal.ONE),
            Optional.of(1L << 30),
            Optional.of(20_000L));

    private final long seed;
    private final boolean candidate;
    private final ScriptedClock clock;
    private final Map<String, CellModel> models;
    private final ConcurrentLinkedQueue<Ran> ran = new ConcurrentLinkedQueue<>();

    private FakeBackend(long seed, boolean candidate, ScriptedClock clock, Map<String, CellModel> models) {
        this.seed = seed;
        this.candidate = candidate;
        this.clock = clock;
        this.models = Map.copyOf(models);
    }

    /** The baseline's side: the cells as modelled, no effect. */
    static FakeBackend baseline(long seed, ScriptedClock clock, Map<String, CellModel> models) {
        return new FakeBackend(seed, false, clock, models);
    }

    /** The candidate's side: each cell's effect applied. */
    static FakeBackend candidate(long seed, ScriptedClock clock, Map<String, CellModel> models) {
        return new FakeBackend(seed, true, clock, models);
    }

    List<Ran> ran() {
        return List.copyOf(ran);
    }

    @Override
    public String name() {
        return "fake";
    }

    @Override
    public Execution run(Cell cell, Assignment assignment) {
        CellModel model = models.get(cell.coordinates().workload());
        if (model == null) {
            throw new IllegalArgumentException(
                    "no model for " + cell.coordinates().workload());
        }
        // the block's run directory is blocks/<cell>/<pair>-<side>/, its raw output raw/<cell>/ under it
        String block = assignment.rawDir().getParent().getParent().getFileName().toString();
        int pair = Integer.parseInt(block.substring(0, block.indexOf('-')));
        String side = block.substring(block.indexOf('-') + 1);
        double drift = model.driftSigma() * new SplittableRandom(mix(cell.id() + "/" + pair)).nextGaussian();
        try {
            Files.createDirectories(assignment.rawDir());
            for (String variant : assignment.variantOrder()) {
                writeForks(cell, model, variant, drift, assignment.rawDir(), cell.id() + "/" + block + "/" + variant);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        clock.advance(model.perFork()
                .multipliedBy((long) (cell.warmup() + cell.repetitions())
                        * assignment.variantOrder().size()));
        ran.add(new Ran(cell.id(), pair, side, assignment.variantOrder()));
        return new Execution(
                CellAssembler.assemble(
                        cell,
                        assignment.rawDir(),
                        assignment.variantOrder(),
                        Map.of(),
                        EXPECTED,
                        Optional.of("local/debian-openjdk:25"),
                        Optional.of("sha256:fake"),
                        new CellAssembler.Ending.Completed()),
                name(),
                "fake harness records",
                assignment.variantOrder(),
                Optional.empty());
    }

    /** The variant's forks, warmup forks first, as the harness appends them; and the driver's times of the measured. */
    private void writeForks(Cell cell, CellModel model, String variant, double drift, Path rawDir, String draws)
            throws IOException {
        SplittableRandom random = new SplittableRandom(mix(draws + "/" + (candidate ? "b" : "a")));
        double median = model.medianMs() * (candidate ? 1 + model.effect() : 1);
        Iterations design = cell.iterations();
        StringBuilder lines = new StringBuilder();
        List<Double> seconds = new ArrayList<>();
        for (int fork = 0; fork < cell.warmup() + cell.repetitions(); fork++) {
            double steady = median * Math.exp(drift + model.forkSigma() * random.nextGaussian());
            List<Double> iterations = new ArrayList<>();
            for (int i = 0; i < design.total(); i++) {
                // the first iteration is the JVM's cold start
                double cold = i == 0 && design.total() > 1 ? 1.8 : 1;
                iterations.add(steady * cold * Math.exp(model.iterationSigma() * random.nextGaussian()));
            }
            lines.append(ONE_LINE.writeValueAsString(record(cell, variant, design, iterations)))
                    .append('\n');
            if (fork >= cell.warmup()) {
                seconds.add(model.perFork().toMillis() / 1000.0);
            }
        }
        String slug = CellFiles.slug(variant);
        Files.writeString(rawDir.resolve(slug + ".records.jsonl"), lines);
        Files.writeString(
                rawDir.resolve(slug + ".hyperfine.json"),
                Json.MAPPER.writeValueAsString(Map.of("results", List.of(Map.of("times", seconds)))));
    }

    /** One fork's record, as the harness writes it: its steady state the median of its measured iterations. */
    private static Map<String, Object> record(Cell cell, String variant, Iterations design, List<Double> iterations) {
        List<Double> measured = new ArrayList<>(iterations.subList(design.warmup(), iterations.size()));
        measured.sort(Double::compare);
        int n = measured.size();
        double wallMs = n % 2 == 1 ? measured.get(n / 2) : (measured.get(n / 2 - 1) + measured.get(n / 2)) / 2;
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("schemaVersion", 1);
        record.put("workload", cell.coordinates().workload());
        record.put("variant", variant);
        record.put("params", cell.workload().params());
        record.put("wallMs", wallMs);
        if (design.total() > 1) {
            record.put("iterations", Map.of("warmup", design.warmup(), "wallMs", iterations));
            record.put("coldStartMs", iterations.get(0));
        }
        record.put("metrics", Map.of());
        record.put("environment", ENVIRONMENT);
        return record;
    }

    private long mix(String draws) {
        return seed * 0x9E3779B97F4A7C15L + draws.hashCode();
    }

    @Override
    public CellCpu cellCpu(String cellId) {
        // nothing runs, so nothing can be seen beside it: the interference sampler reads no cell and flags nothing
        return new CellCpu() {
            @Override
            public OptionalLong nanos() {
                return OptionalLong.empty();
            }

            @Override
            public String source() {
                return "fake";
            }
        };
    }

    @Override
    public void cancel() {}

    @Override
    public void stopLeftovers(String runId, Path rawDir) {}

    private static JsonNode readEnvironment() {
        try {
            return Json.MAPPER
                    .readTree(Files.readAllLines(ENVIRONMENT_FIXTURE).get(0))
                    .get("environment");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
