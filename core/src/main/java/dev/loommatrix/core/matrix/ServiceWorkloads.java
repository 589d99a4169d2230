package dev.loommatrix.core.matrix;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * A {@code workloads} entry's {@code service:} and {@code load:} (issue #28): the server to start and how
 * to load it. Everything is checked with its position in the file, like {@code jmh:} and {@code program:}.
 */
final class ServiceWorkloads {

    static final List<String> SERVICE_KEYS =
            List.of("jar", "classpath", "mainClass", "args", "env", "port", "ready", "startTimeout");
    static final List<String> READY_KEYS = List.of("http", "status", "tcp");
    static final List<String> LOAD_KEYS = List.of(
            "method",
            "path",
            "paths",
            "urlsFile",
            "headers",
            "body",
            "users",
            "rate",
            "capacity",
            "connections",
            "warmup",
            "duration",
            "timeout",
            "maxShortfall");
    static final List<String> METHODS = List.of("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS");

    private static final Pattern DURATION = Pattern.compile("([0-9]+)(ms|s|m|h)");
    /** A measured window longer than this is a soak test, not a benchmark cell. */
    private static final Duration MAX_WINDOW = Duration.ofHours(2);

    private ServiceWorkloads() {}

    static Optional<UserWorkload.Artifact> service(
            YamlReader in, Node item, Map<String, NodeTuple> entry, String where, Path base) {
        Node node = entry.get("service").getValueNode();
        String at = where + ".service";
        Map<String, NodeTuple> f = in.mapping(node, at, SERVICE_KEYS).orElse(null);
        Optional<ServiceLoad> load =
                Sections.requiredField(in, item, entry, "load", where).flatMap(n -> load(in, n, where + ".load", base));
        if (f == null) {
            return Optional.empty();
        }
        Optional<ProgramEntries.Launchable> launch = ProgramEntries.launchable(in, node, f, at, base);
        List<String> args = Sections.field(f, "args")
                .flatMap(n -> in.stringList(n, at + ".args"))
                .orElse(List.of());
        Map<String, String> env = Sections.field(f, "env")
                .flatMap(n -> in.stringMap(n, at + ".env"))
                .orElse(Map.of());
        Optional<Integer> port = Optional.empty();
        if (f.containsKey("port")) {
            port = in.integer(f.get("port").getValueNode(), at + ".port", 1, 65_535)
                    .map(Long::intValue);
        } else {
            in.error(node, at + " does not say which port the server listens on", "add e.g. port: 8080");
        }
        Optional<UserWorkload.Readiness> ready = f.containsKey("ready")
                ? readiness(in, f.get("ready").getValueNode(), at + ".ready")
                : Optional.of(new UserWorkload.Readiness.Tcp());
        Duration startTimeout = Sections.field(f, "startTimeout")
                .flatMap(n -> duration(in, n, at + ".startTimeout", Duration.ofMinutes(30)))
                .orElse(Duration.ofSeconds(120));
        if (launch.isEmpty() || port.isEmpty() || ready.isEmpty() || load.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new UserWorkload.Service(
                launch.get().jar(),
                launch.get().classpath(),
                launch.get().mainClass(),
                args,
                env,
                port.get(),
                ready.get(),
                startTimeout,
                load.get()));
    }

    /** {@code ready: {http: /health, status: 200}} or {@code ready: {tcp: true}}. */
    private static Optional<UserWorkload.Readiness> readiness(YamlReader in, Node node, String where) {
        Map<String, NodeTuple> f = in.mapping(node, where, READY_KEYS).orElse(null);
        if (f == null) {
            return Optional.empty();
        }
        String hint = "ready: {http: /actuator/health, status: 200} (an HTTP GET), or ready: {tcp: true} "
                + "(the port accepts a connection)";
        if (f.containsKey("http") == f.containsKey("tcp")) {
            in.error(node, where + " needs either 'http' or 'tcp'", hint);
            return Optional.empty();
        }
        if (f.containsKey("tcp")) {
            if (f.containsKey("status")) {
                in.error(f.get("status").getKeyNode(), where + ".status goes with http, not tcp", hint);
                return Optional.empty();
            }
            return in.bool(f.get("tcp").getValueNode(), where + ".tcp").flatMap(on -> {
                if (!on) {
                    in.error(f.get("tcp").getValueNode(), where + ".tcp: false checks nothing", hint);
                    return Optional.empty();
                }
                return Optional.of(new UserWorkload.Readiness.Tcp());
            });
        }
        Optional<String> path = path(in, f.get("http").getValueNode(), where + ".http");
        int status = Sections.field(f, "status")
                .flatMap(n -> in.integer(n, where + ".status", 100, 599))
                .map(Long::intValue)
                .orElse(200);
        return path.map(p -> new UserWorkload.Readiness.Http(p, status));
    }

    static Optional<ServiceLoad> load(YamlReader in, Node node, String where, Path base) {
        Map<String, NodeTuple> f = in.mapping(node, where, LOAD_KEYS).orElse(null);
        if (f == null) {
            return Optional.empty();
        }
        String method = method(in, f, where);
        Optional<Requests> requests = requests(in, node, f, where, base);
        Map<String, String> headers = Sections.field(f, "headers")
                .flatMap(n -> in.stringMap(n, where + ".headers"))
                .orElse(Map.of());
        Optional<String> body = Sections.field(f, "body").flatMap(n -> in.string(n, where + ".body"));
        boolean bodyFits = bodyFitsMethod(in, f, where, method, body);
        Optional<ServiceLoad.Model> model = model(in, node, f, where);
        Optional<Duration> warmup = Sections.field(f, "warmup")
                .flatMap(n -> duration(in, n, where + ".warmup", MAX_WINDOW))
                .or(() -> f.containsKey("warmup") ? Optional.empty() : Optional.of(Duration.ofSeconds(10)));
        Optional<Duration> duration = Sections.requiredField(in, node, f, "duration", where)
                .flatMap(n -> duration(in, n, where + ".duration", MAX_WINDOW));
        Optional<Duration> timeout =
                Sections.field(f, "timeout").flatMap(n -> duration(in, n, where + ".timeout", Duration.ofHours(1)));
        Optional<Double> shortfall = maxShortfall(in, f, where, model);
        if (requests.isEmpty()
                || !bodyFits
                || model.isEmpty()
                || warmup.isEmpty()
                || duration.isEmpty()
                || shortfall.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ServiceLoad(
                method,
                requests.get().paths(),
                headers,
                body,
                model.get(),
                warmup.get(),
                duration.get(),
                timeout,
                shortfall.get(),
                requests.get().urlsFile()));
    }

    /** What a load requests: one path, several (one at random a request), or the URLs of a file. */
    private record Requests(List<String> paths, Optional<ServiceLoad.UrlsFile> urlsFile) {}

    /** {@code method:}, upper-cased; GET when absent or not an HTTP method (reported). */
    private static String method(YamlReader in, Map<String, NodeTuple> f, String where) {
        return Sections.field(f, "method")
                .flatMap(n -> in.string(n, where + ".method").map(m -> m.toUpperCase(java.util.Locale.ROOT)))
                .filter(m -> {
                    if (!METHODS.contains(m)) {
                        in.error(
                                f.get("method").getValueNode(),
                                where + ".method '" + m + "' is not an HTTP method",
                                "one of " + String.join(", ", METHODS));
                        return false;
                    }
                    return true;
                })
                .orElse("GET");
    }

    /** Exactly one of {@code path}, {@code paths} and {@code urlsFile}; empty when none or more, or one is bad. */
    private static Optional<Requests> requests(
            YamlReader in, Node node, Map<String, NodeTuple> f, String where, Path base) {
        long ways = java.util.stream.Stream.of("path", "paths", "urlsFile")
                .filter(f::containsKey)
                .count();
        if (ways > 1) {
            in.error(
                    f.get(f.containsKey("urlsFile") ? "urlsFile" : "paths").getKeyNode(),
                    where + " says what to request more than one way (path, paths, urlsFile)",
                    "one path: path: /orders; several, one at random a request: paths: [/orders, /users]; "
                            + "or a file of URLs as oha reads them: urlsFile: requests.txt");
            return Optional.empty();
        }
        if (f.containsKey("urlsFile")) {
            return UrlsFiles.read(in, f.get("urlsFile").getValueNode(), where + ".urlsFile", base)
                    .map(file -> new Requests(List.of(), Optional.of(file)));
        }
        if (f.containsKey("path")) {
            return path(in, f.get("path").getValueNode(), where + ".path")
                    .map(p -> new Requests(List.of(p), Optional.empty()));
        }
        if (f.containsKey("paths")) {
            List<Node> items = in.nonEmptySequence(f.get("paths").getValueNode(), where + ".paths")
                    .orElse(List.of());
            List<String> paths = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                path(in, items.get(i), where + ".paths[" + i + "]").ifPresent(paths::add);
            }
            return !items.isEmpty() && paths.size() == items.size()
                    ? Optional.of(new Requests(paths, Optional.empty()))
                    : Optional.empty();
        }
        in.error(
                node,
                where + " does not say what to request",
                "add e.g. path: /orders (or paths: [...], or urlsFile: requests.txt)");
        return Optional.empty();
    }

    /** A body goes with a method that sends one; with GET or HEAD it is reported. */
    private static boolean bodyFitsMethod(
            YamlReader in, Map<String, NodeTuple> f, String where, String method, Optional<String> body) {
        if (body.isPresent() && (method.equals("GET") || method.equals("HEAD"))) {
            in.error(
                    f.get("body").getKeyNode(),
                    where + ".body is sent with " + method,
                    "a request body goes with method: POST, PUT or PATCH");
            return false;
        }
        return true;
    }

    /** {@code maxShortfall:} (default {@link ServiceLoad#DEFAULT_MAX_SHORTFALL}), only for an open model. */
    private static Optional<Double> maxShortfall(
            YamlReader in, Map<String, NodeTuple> f, String where, Optional<ServiceLoad.Model> model) {
        Optional<Double> shortfall = Sections.field(f, "maxShortfall")
                .flatMap(n -> percent(in, n, where + ".maxShortfall"))
                .or(() -> f.containsKey("maxShortfall")
                        ? Optional.empty()
                        : Optional.of(ServiceLoad.DEFAULT_MAX_SHORTFALL));
        if (f.containsKey("maxShortfall") && model.isPresent() && model.get() instanceof ServiceLoad.Closed) {
            in.error(
                    f.get("maxShortfall").getKeyNode(),
                    where + ".maxShortfall is for an open model (rate: or capacity:)",
                    "a closed model (users:) asks for no rate, so it cannot fall short of one");
            return Optional.empty();
        }
        return shortfall;
    }

    /**
     * {@code users: N} (closed), {@code rate: R | [R…]} (open) or {@code capacity: {…}} (a capacity search), the
     * last two with optional {@code connections}.
     */
    private static Optional<ServiceLoad.Model> model(YamlReader in, Node node, Map<String, NodeTuple> f, String where) {
        String hint = "closed model: users: 200 (each sends its next request when the last is answered); "
                + "open model: rate: 500 or rate: [100, 200, 400] requests per second, connections: 256; "
                + "or the highest rate within an objective: capacity: {objective: {p99: 500ms}, from: 50, to: 6400}";
        List<String> ways = java.util.stream.Stream.of("users", "rate", "capacity")
                .filter(f::containsKey)
                .toList();
        if (ways.size() != 1) {
            in.error(
                    ways.size() > 1 ? f.get(ways.get(1)).getKeyNode() : node,
                    ways.size() > 1
                            ? where + " says how to load more than one way (" + String.join(", ", ways) + ")"
                            : where + " does not say how to load: 'users', 'rate' or 'capacity'",
                    hint);
            return Optional.empty();
        }
        if (f.containsKey("users")) {
            if (f.containsKey("connections")) {
                in.error(
                        f.get("connections").getKeyNode(),
                        where + ".connections goes with rate or capacity (open model)",
                        "in a closed model each of the users is one connection");
                return Optional.empty();
            }
            return in.integer(f.get("users").getValueNode(), where + ".users", 1, 100_000)
                    .map(n -> new ServiceLoad.Closed(n.intValue()));
        }
        Optional<Integer> connections = Sections.field(f, "connections")
                .flatMap(n -> in.integer(n, where + ".connections", 1, 100_000))
                .map(Long::intValue)
                .or(() -> f.containsKey("connections") ? Optional.empty() : Optional.of(256));
        if (f.containsKey("capacity")) {
            return connections.flatMap(
                    c -> CapacityEntries.capacity(in, f.get("capacity").getValueNode(), where + ".capacity", c));
        }
        Node rateNode = f.get("rate").getValueNode();
        List<Node> items = rateNode instanceof SequenceNode
                ? in.nonEmptySequence(rateNode, where + ".rate").orElse(List.of())
                : List.of(rateNode);
        List<Double> rates = new ArrayList<>();
        for (Node item : items) {
            rate(in, item, where + ".rate").ifPresent(rates::add);
        }
        if (rates.isEmpty() || rates.size() != items.size()) {
            return Optional.empty();
        }
        if (rates.stream().distinct().count() != rates.size()) {
            in.error(rateNode, where + ".rate lists a rate twice", "each rate is one point of the curve");
            return Optional.empty();
        }
        return connections.map(c -> new ServiceLoad.Open(rates, c));
    }

    private static Optional<Double> rate(YamlReader in, Node node, String where) {
        if (node instanceof ScalarNode s) {
            try {
                double rate = Double.parseDouble(s.getValue().replace("_", ""));
                if (rate > 0 && rate <= 10_000_000 && Double.isFinite(rate)) {
                    return Optional.of(rate);
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        in.error(
                node,
                where + " must be a number of requests per second above 0, found " + YamlReader.describe(node),
                "e.g. rate: 500, or rate: [100, 200, 400] for a throughput-latency curve");
        return Optional.empty();
    }

    /** A request path: starts with '/', no spaces (it becomes part of a URL). */
    private static Optional<String> path(YamlReader in, Node node, String where) {
        return in.string(node, where).filter(p -> {
            if (!p.startsWith("/") || p.chars().anyMatch(Character::isWhitespace)) {
                in.error(
                        node,
                        where + " '" + p + "' is not a request path",
                        "a path starts with '/' and has no spaces, e.g. /orders?limit=10");
                return false;
            }
            return true;
        });
    }

    private static Optional<Duration> duration(YamlReader in, Node node, String where, Duration max) {
        return in.scalarText(node, where).flatMap(text -> {
            Matcher m = DURATION.matcher(text.trim());
            if (!m.matches() || m.group(1).length() > 9) {
                in.error(node, where + " '" + text + "' is not a duration", "a number with a unit: 500ms, 30s, 2m");
                return Optional.empty();
            }
            long n = Long.parseLong(m.group(1));
            Duration d =
                    switch (m.group(2)) {
                        case "ms" -> Duration.ofMillis(n);
                        case "s" -> Duration.ofSeconds(n);
                        case "m" -> Duration.ofMinutes(n);
                        default -> Duration.ofHours(n);
                    };
            if (d.compareTo(max) > 0) {
                in.error(node, where + " '" + text + "' is too long", "at most " + max.toMinutes() + "m");
                return Optional.empty();
            }
            if (d.isZero() && !where.endsWith(".warmup")) {
                in.error(node, where + " must be longer than 0", "e.g. 30s");
                return Optional.empty();
            }
            return Optional.of(d);
        });
    }

    /** {@code 5%} or a fraction below 1 ({@code 0.05}). */
    private static Optional<Double> percent(YamlReader in, Node node, String where) {
        return Values.share(
                in, node, where, 0, "e.g. maxShortfall: 5% (the completed rate may be 5 % below the asked rate)");
    }
}
