package dev.loommatrix.runner.publish;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.SimpleFileServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;

/** A site served on loopback under a sub-path, the way a GitHub Pages project site serves it. */
public final class StaticHost implements AutoCloseable {

    private final HttpServer server;
    private final String base;

    public StaticHost(Path site, String base) throws IOException {
        this.base = base;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext(
                base, SimpleFileServer.createFileHandler(site.toAbsolutePath().normalize()));
        server.start();
    }

    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + base + path;
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
