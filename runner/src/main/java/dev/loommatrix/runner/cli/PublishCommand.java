package dev.loommatrix.runner.cli;

import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.runner.publish.SitePublisher;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "publish",
        description = "Publish a run directory into a static site; an A/B run directory (loom-matrix ab) is published"
                + " as an A/B run: its verdict, apart from the nightly history.")
final class PublishCommand implements Callable<Integer> {

    @Option(names = "--run", required = true, paramLabel = "RUN_DIR", description = "The run directory to publish.")
    Path run;

    @Option(names = "--site", required = true, paramLabel = "SITE_DIR", description = "The site directory to write.")
    Path site;

    @Option(
            names = "--keep",
            paramLabel = "N",
            description = "Keep only the newest N runs in the site's history (default: all).")
    Integer keep;

    @Option(
            names = "--keep-profiles",
            paramLabel = "N",
            description = "Keep the profiles (flame graph pages, and JFR files with --publish-recordings) of the"
                    + " newest N runs only, 0 for none (default: " + dev.loommatrix.runner.publish.History.KEEP_PROFILES
                    + "): they are large.")
    Integer keepProfiles;

    @Option(
            names = "--keep-ab",
            paramLabel = "N",
            description = "Keep only the newest N A/B runs (publish of an `ab` directory; default: "
                    + dev.loommatrix.runner.publish.AbRuns.KEEP + ").")
    Integer keepAb;

    @Option(
            names = "--publish-recordings",
            description = "Also publish the profiling runs' JFR recordings (hundreds of kB a variant: a large"
                    + " matrix's exceed a static host's limits; they stay in the run's raw output either way).")
    boolean publishRecordings;

    @Option(
            names = "--postgres",
            paramLabel = "JDBC_URL",
            description = "Also upsert the run into PostgreSQL for Grafana, e.g."
                    + " jdbc:postgresql://localhost:5432/loom?user=loom&password=… (schema created and migrated).")
    String postgres;

    @Spec
    CommandSpec spec;

    /** The URL without its password, for messages. */
    static String redact(String jdbcUrl) {
        return jdbcUrl.replaceAll("(?i)(password=)[^&]*", "$1***");
    }

    @Override
    public Integer call() throws Exception {
        if (keep != null && keep < 1) {
            throw new LoomMatrix.UsageException("--keep must be at least 1, got " + keep);
        }
        if (keepProfiles != null && keepProfiles < 0) {
            throw new LoomMatrix.UsageException("--keep-profiles must be at least 0, got " + keepProfiles);
        }
        if (keepAb != null && keepAb < 1) {
            throw new LoomMatrix.UsageException("--keep-ab must be at least 1, got " + keepAb);
        }
        RunDirectory dir = CompareCommand.open(run, "--run");
        if (isAbRun(run)) {
            return publishAbRun(dir);
        }
        SitePublisher.Published published;
        try {
            published = SitePublisher.publish(
                    dir,
                    site,
                    java.util.Optional.ofNullable(keep),
                    keepProfiles != null ? keepProfiles : dev.loommatrix.runner.publish.History.KEEP_PROFILES,
                    publishRecordings);
        } catch (dev.loommatrix.runner.publish.History.Refused refused) {
            throw new LoomMatrix.UsageException(refused.getMessage());
        }
        var out = spec.commandLine().getOut();
        published.history().note().ifPresent(n -> spec.commandLine().getErr().println("note: " + n));
        out.println("published " + run + " → " + published.page() + " ("
                + runs(published.history().index().runs().size()) + " in the history)");
        out.println("next: " + Output.command() + " serve " + site + "   (or put " + site + " on any static host)");
        if (postgres != null) {
            try {
                var written = dev.loommatrix.runner.publish.PostgresSink.publish(
                        postgres, dir.readManifest(), dir.readCells());
                out.printf(
                        "postgres: %d cells, %d measurements, %d samples upserted%n",
                        written.cells(), written.measurements(), written.samples());
            } catch (java.sql.SQLException | org.flywaydb.core.api.FlywayException e) {
                throw new LoomMatrix.UsageException("could not write to PostgreSQL at " + redact(postgres) + ": "
                        + redact(String.valueOf(e.getMessage()))
                        + " (the site was published; publish again once the database answers)");
            }
        }
        return ExitCode.OK.code;
    }

    /**
     * An A/B run is its own verdict, not a run of the matrix (issue #31): published, it became the newest run and
     * the matrix a visitor lands on, a point of the nightly series compared with the previous nightly, and its
     * verdict, its baseline side and its A/A nature were shown nowhere. Refused, with where its verdict is.
     */
    /** The layout {@code ab} writes: the candidate's run at the root, the baseline's under baseline/, the blocks. */
    static boolean isAbRun(Path run) {
        return java.nio.file.Files.isRegularFile(run.resolve("baseline").resolve("run.json"))
                && java.nio.file.Files.isDirectory(run.resolve("blocks"));
    }

    /**
     * An A/B run into the site as what it is (issue #31): its verdict, both sides, how it was measured — kept apart
     * from the nightly history ({@link dev.loommatrix.runner.publish.AbRuns}). A run stopped before its verdict has
     * nothing to publish.
     */
    private int publishAbRun(RunDirectory dir) throws Exception {
        Path verdict = run.resolve("compare.json");
        if (!java.nio.file.Files.isRegularFile(verdict)) {
            throw new LoomMatrix.UsageException(run + " is an A/B run (loom-matrix ab) that has no verdict (no"
                    + " compare.json: it was stopped before it ended); run ab again, then publish its directory");
        }
        dev.loommatrix.core.compare.CompareReport report;
        try {
            report = dev.loommatrix.core.result.Json.MAPPER.readValue(
                    verdict.toFile(), dev.loommatrix.core.compare.CompareReport.class);
        } catch (java.io.IOException e) {
            throw new LoomMatrix.UsageException(verdict + " is not an A/B verdict loom-matrix can read ("
                    + firstLine(e.getMessage()) + "); publish the directory ab wrote, unedited");
        }
        if (report.ab() == null) {
            throw new LoomMatrix.UsageException(verdict + " is a compare report without its A/B part (no \"ab\");"
                    + " publish the directory ab wrote, unedited");
        }
        dev.loommatrix.runner.publish.AbRuns.Outcome outcome;
        try {
            outcome = dev.loommatrix.runner.publish.AbRuns.add(
                    site,
                    dir.readManifest(),
                    report,
                    keepAb != null ? keepAb : dev.loommatrix.runner.publish.AbRuns.KEEP);
        } catch (dev.loommatrix.runner.publish.History.Refused refused) {
            throw new LoomMatrix.UsageException(refused.getMessage());
        }
        Path page = SitePublisher.installDashboard(site);
        var out = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        outcome.note().ifPresent(n -> err.println("note: " + n));
        var e = outcome.entry();
        out.println("published A/B run " + e.runId() + " (" + e.candidateLabel() + " vs " + e.baselineLabel()
                + (e.aToA() ? ", A/A: both sides the same build" : "") + ") → " + page + "#/ab?run=" + e.runId()
                + " (" + outcome.index().runs().size() + " A/B runs in the site)");
        out.println("kept apart from the nightly history: not the newest matrix, no point in a trend, never a"
                + " baseline");
        if (postgres != null) {
            err.println("note: an A/B run is not written to PostgreSQL (Grafana charts the nightly runs); its verdict"
                    + " is in the site");
        }
        out.println("next: " + Output.command() + " serve " + site + "   (or put " + site + " on any static host)");
        return ExitCode.OK.code;
    }

    private static String firstLine(String message) {
        String m = String.valueOf(message);
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    /** "1 run", "3 runs". */
    static String runs(int n) {
        return n == 1 ? "1 run" : n + " runs";
    }
}
