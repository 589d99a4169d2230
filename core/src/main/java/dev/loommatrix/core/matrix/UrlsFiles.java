package dev.loommatrix.core.matrix;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * {@code load.urlsFile: FILE}: oha's {@code --urls-from-file} format, checked here as oha would read it (every
 * non-blank line an absolute URL) and more: plain http, and one {@code host:port} for the whole file, which the
 * generator then sends to the cell's server. A bad line is reported at its own line and column.
 */
final class UrlsFiles {

    /** The most URLs a file may list: oha holds them all in memory, and a cell's record names the file. */
    static final int MAX_URLS = 1_000_000;

    private UrlsFiles() {}

    static Optional<ServiceLoad.UrlsFile> read(YamlReader in, Node node, String where, Path base) {
        Optional<String> name = in.string(node, where);
        if (name.isEmpty()) {
            return Optional.empty();
        }
        Path file = base.resolve(name.get()).normalize();
        Optional<List<String>> lines = lines(in, node, where, file);
        if (lines.isEmpty()) {
            return Optional.empty();
        }
        Urls urls = new Urls(in.besideMatrix(name.get()));
        for (int i = 0; i < lines.get().size(); i++) {
            Optional<Problem> bad = urls.add(i + 1, lines.get().get(i));
            if (bad.isPresent()) {
                in.problem(bad.get());
                return Optional.empty();
            }
        }
        if (urls.count == 0) {
            in.error(node, where + ": " + file + " lists no URL", "one absolute URL a line, e.g. http://orders:8080/a");
            return Optional.empty();
        }
        return Optional.of(new ServiceLoad.UrlsFile(file, urls.authority, urls.count));
    }

    /** The file's lines, or empty when it is missing or not UTF-8 text (reported at the matrix's key). */
    private static Optional<List<String>> lines(YamlReader in, Node node, String where, Path file) {
        if (!Files.isRegularFile(file)) {
            in.error(
                    node,
                    where + ": " + file + " does not exist",
                    "a file of request URLs, one a line (http://orders:8080/orders?id=1); paths are relative to the "
                            + "matrix file");
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException | java.io.UncheckedIOException e) {
            in.error(node, where + ": " + file + " cannot be read as UTF-8 text (" + e.getMessage() + ")", null);
            return Optional.empty();
        }
    }

    /** The URLs read so far: how many, and the one host:port they all name. */
    private static final class Urls {
        private final String shown;
        private String authority;
        private int count;

        Urls(String shown) {
            this.shown = shown;
        }

        /** Takes one line of the file (numbered from 1); a blank line is skipped, a bad one is the problem. */
        Optional<Problem> add(int number, String line) {
            if (line.isBlank()) {
                return Optional.empty();
            }
            int column = line.length() - line.stripLeading().length() + 1;
            URI uri;
            try {
                uri = new URI(line.strip());
            } catch (URISyntaxException e) {
                return problem(
                        number,
                        column + Math.max(0, e.getIndex()),
                        "'" + line.strip() + "' is not a URL (" + e.getReason() + ")",
                        "one absolute URL a line, e.g. http://orders:8080/orders?id=1");
            }
            if (!"http".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null) {
                return problem(
                        number,
                        column,
                        "'" + line.strip() + "' is not an http:// URL with a host",
                        "the cell's server speaks plain HTTP: http://orders:8080/orders?id=1 (the host "
                                + "is any name; the generator sends the request to the cell's server)");
            }
            String here = uri.getHost() + ":" + (uri.getPort() < 0 ? 80 : uri.getPort());
            if (authority == null) {
                authority = here;
            } else if (!authority.equals(here)) {
                return problem(
                        number,
                        column,
                        "this URL names " + here + " where the file's first names " + authority,
                        "every URL goes to the one server of the cell: name one host:port throughout");
            }
            if (++count > MAX_URLS) {
                return problem(
                        number,
                        column,
                        "more than " + MAX_URLS + " URLs",
                        "the generator holds them all in memory; sample them down");
            }
            return Optional.empty();
        }

        private Optional<Problem> problem(int number, int column, String message, String hint) {
            return Optional.of(new Problem(shown, number, column, message, Optional.of(hint)));
        }
    }
}
