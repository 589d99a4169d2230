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

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Path index = SitePublisher.publish(new RunDirectory(run), site);
        spec.commandLine().getOut().println("published " + run + " → " + index);
        return ExitCode.OK.code;
    }
}
