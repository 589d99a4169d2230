package dev.loommatrix.runner.cli;

import dev.loommatrix.core.result.RunDirectory;
import dev.loommatrix.runner.publish.SitePublisher;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "publish", description = "Publish a run directory into a static site.")
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
        RunDirectory dir = CompareCommand.open(run, "--run");
        refuseAbRun(run);
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
                + published.history().index().runs().size() + " runs in the history)");
        out.println("next: loom-matrix serve " + site + "   (or put " + site + " on any static host)");
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
    static void refuseAbRun(Path run) {
        boolean ab = java.nio.file.Files.isRegularFile(run.resolve("compare.json"))
                && java.nio.file.Files.isRegularFile(run.resolve("baseline").resolve("run.json"))
                && java.nio.file.Files.isDirectory(run.resolve("blocks"));
        if (ab) {
            throw new LoomMatrix.UsageException(run + " is an A/B run (loom-matrix ab): its verdict is "
                    + run.resolve("compare.md") + " (the pull request's comment), and publishing it would add its"
                    + " interleaved blocks to the nightly history as one more run, compared with the last nightly,"
                    + " its verdict and baseline side lost; publish takes a run of the matrix (loom-matrix run)");
        }
    }
}
