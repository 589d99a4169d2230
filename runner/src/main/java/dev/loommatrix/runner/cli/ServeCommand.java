package dev.loommatrix.runner.cli;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.SimpleFileServer;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "serve", description = "Serve a published site on loopback, as a static host would.")
final class ServeCommand implements Callable<Integer> {

    @Parameters(
            arity = "0..1",
            defaultValue = "site",
            paramLabel = "SITE_DIR",
            description = "Default: ${DEFAULT-VALUE}.")
    Path site;

    @Option(names = "--port", defaultValue = "8080", description = "Default: ${DEFAULT-VALUE}; 0 picks a free port.")
    int port;

    @Option(
            names = "--base",
            defaultValue = "/",
            description = "The URL path to serve under, as on a GitHub Pages project site (e.g. /loom-matrix/).")
    String base;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        String context = base.endsWith("/") ? base : base + "/";
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 0);
        server.createContext(
                context,
                SimpleFileServer.createFileHandler(site.toAbsolutePath().normalize()));
        server.start();
        spec.commandLine()
                .getOut()
                .printf(
                        "serving %s at http://127.0.0.1:%d%s (Ctrl-C stops)%n",
                        site, server.getAddress().getPort(), context);
        spec.commandLine().getOut().flush();
        Thread.currentThread().join();
        return ExitCode.OK.code;
    }
}
