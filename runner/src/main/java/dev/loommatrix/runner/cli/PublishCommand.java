package dev.loommatrix.runner.cli;

import dev.loommatrix.runner.publish.SitePublisher;
import dev.loommatrix.runner.result.RunDirectory;
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

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (keep != null && keep < 1) {
            throw new LoomMatrix.UsageException("--keep must be at least 1, got " + keep);
        }
        try {
            SitePublisher.Published published =
                    SitePublisher.publish(new RunDirectory(run), site, java.util.Optional.ofNullable(keep));
            published.history().note().ifPresent(n -> spec.commandLine()
                    .getErr()
                    .println("note: " + n));
            spec.commandLine()
                    .getOut()
                    .println("published " + run + " → " + published.page() + " ("
                            + published.history().index().runs().size() + " runs in the history)");
            return ExitCode.OK.code;
        } catch (dev.loommatrix.runner.publish.History.Refused refused) {
            throw new LoomMatrix.UsageException(refused.getMessage());
        }
    }
}
