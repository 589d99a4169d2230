package dev.loommatrix.core.matrix;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Services as workloads (issue #28): what a valid entry becomes, and every mistake, at its line and column. */
class ServiceWorkloadsTest {

    @TempDir
    Path dir;

    static final String HEAD =
            """
            schema: 1
            jdks:
              - {id: t21, vm: hotspot, version: 21, image: "eclipse-temurin:21-jdk"}
            cpus: [1]
            workloads:
            """;

    static final String VARIANTS =
            """
                variants:
                  virtual: {properties: {spring.threads.virtual.enabled: "true"}}
                  tomcat-200: {properties: {server.tomcat.threads.max: "200"}}
                baseline: tomcat-200
            """;

    @BeforeEach
    void jar() throws Exception {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "app.Main");
        try (var out = new JarOutputStream(Files.newOutputStream(dir.resolve("app.jar")), manifest)) {
            // a manifest is all the reader looks at
        }
    }

    Matrix parse(String yaml, Optional<String> profile) throws Exception {
        return MatrixParser.parse(Files.writeString(dir.resolve("m.yaml"), yaml), profile);
    }

    List<String> problems(String yaml) throws Exception {
        Path file = Files.writeString(dir.resolve("m.yaml"), yaml);
        return catchThrowableOfType(MatrixException.class, () -> MatrixParser.parse(file, Optional.empty()))
                .problems()
                .stream()
                .map(p -> p.format().replace(dir.toString(), "DIR"))
                .toList();
    }

    static String entry(String service, String load) {
        return "  - id: web\n    service:\n" + indent(service, 6) + "    load:\n" + indent(load, 6) + VARIANTS;
    }

    static String indent(String text, int n) {
        return text.lines().map(l -> " ".repeat(n) + l + "\n").reduce("", String::concat);
    }

    @Test
    void aClosedModelServiceBecomesAUserWorkloadJudgedByThroughput() throws Exception {
        WorkloadSpec w = parse(
                        HEAD
                                + entry(
                                        """
                                jar: app.jar
                                args: [--server.port=8080]
                                env: {SPRING_PROFILES_ACTIVE: bench}
                                port: 8080
                                ready: {http: /actuator/health, status: 200}
                                startTimeout: 90s
                                """,
                                        """
                                path: /work
                                headers: {Accept: text/plain}
                                users: 3000
                                warmup: 10s
                                duration: 30s
                                """),
                        Optional.empty())
                .workloads()
                .get(0);
        UserWorkload.Service service =
                (UserWorkload.Service) w.user().orElseThrow().artifact();
        assertThat(service.jar()).contains(dir.resolve("app.jar"));
        assertThat(service.args()).containsExactly("--server.port=8080");
        assertThat(service.env()).containsEntry("SPRING_PROFILES_ACTIVE", "bench");
        assertThat(service.port()).isEqualTo(8080);
        assertThat(service.ready()).isEqualTo(new UserWorkload.Readiness.Http("/actuator/health", 200));
        assertThat(service.startTimeout()).isEqualTo(Duration.ofSeconds(90));
        ServiceLoad load = service.load();
        assertThat(load.method()).isEqualTo("GET");
        assertThat(load.paths()).containsExactly("/work");
        assertThat(load.headers()).isEqualTo(Map.of("Accept", "text/plain"));
        assertThat(load.model()).isEqualTo(new ServiceLoad.Closed(3000));
        assertThat(load.model().levels()).containsExactly("users=3000");
        assertThat(load.warmup()).isEqualTo(Duration.ofSeconds(10));
        assertThat(load.duration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(load.judgedBy()).isEqualTo(ServiceLoad.THROUGHPUT);
        assertThat(w.user().get().baseline()).isEqualTo("tomcat-200");
        assertThat(w.user().get().settings("virtual").properties())
                .containsEntry("spring.threads.virtual.enabled", "true");
    }

    @Test
    void anOpenModelWithSeveralRatesIsACurveJudgedByItsP99() throws Exception {
        WorkloadSpec w = parse(
                        HEAD
                                + entry(
                                        "jar: app.jar\nport: 9000\n",
                                        """
                                method: post
                                paths: [/orders, /users]
                                body: '{"n": 1}'
                                rate: [100, 250.5, 400]
                                connections: 64
                                warmup: 0s
                                duration: 15s
                                timeout: 2s
                                maxShortfall: 2%
                                """),
                        Optional.empty())
                .workloads()
                .get(0);
        UserWorkload.Service service =
                (UserWorkload.Service) w.user().orElseThrow().artifact();
        assertThat(service.ready()).isEqualTo(new UserWorkload.Readiness.Tcp());
        assertThat(service.startTimeout()).isEqualTo(Duration.ofSeconds(120));
        ServiceLoad load = service.load();
        assertThat(load.method()).isEqualTo("POST");
        assertThat(load.paths()).containsExactly("/orders", "/users");
        assertThat(load.body()).contains("{\"n\": 1}");
        assertThat(load.model()).isEqualTo(new ServiceLoad.Open(List.of(100.0, 250.5, 400.0), 64));
        assertThat(load.model().levels()).containsExactly("rate=100/s", "rate=250.5/s", "rate=400/s");
        assertThat(load.warmup()).isZero();
        assertThat(load.requestTimeout()).contains(Duration.ofSeconds(2));
        assertThat(load.maxShortfall()).isEqualTo(0.02);
        assertThat(load.judgedBy()).isEqualTo(ServiceLoad.P99);
    }

    @Test
    void aProfileShortensTheLoadKeyByKey() throws Exception {
        Matrix m = parse(
                HEAD + entry("jar: app.jar\nport: 8080\n", "path: /work\nusers: 3000\nduration: 60s\n")
                        + """
                        profiles:
                          quick:
                            workloads:
                              web: {load: {users: 50, duration: 5s}}
                        """,
                Optional.of("quick"));
        ServiceLoad load = ((UserWorkload.Service)
                        m.workloads().get(0).user().orElseThrow().artifact())
                .load();
        assertThat(load.model()).isEqualTo(new ServiceLoad.Closed(50));
        assertThat(load.duration()).isEqualTo(Duration.ofSeconds(5));
        assertThat(load.paths()).containsExactly("/work");
    }

    @Test
    void everyMistakeIsSaidWhereItIsWithAHint() throws Exception {
        List<String> problems = problems(
                HEAD
                        + entry(
                                """
                        jar: missing.jar
                        port: 70000
                        ready: {http: health, tcp: true}
                        startTimeout: soon
                        """,
                                """
                        method: FETCH
                        path: /work
                        users: 10
                        rate: 100
                        duration: 0s
                        body: x
                        """));
        assertThat(problems)
                .containsExactly(
                        "DIR/m.yaml:8:12: error: jar DIR/missing.jar does not exist\n  hint: build it first; paths are "
                                + "relative to the matrix file",
                        "DIR/m.yaml:9:13: error: workloads[0].service.port must be between 1 and 65535, got 70000",
                        "DIR/m.yaml:10:14: error: workloads[0].service.ready needs either 'http' or 'tcp'\n  hint: "
                                + "ready: {http: /actuator/health, status: 200} (an HTTP GET), or ready: {tcp: true} "
                                + "(the port accepts a connection)",
                        "DIR/m.yaml:11:21: error: workloads[0].service.startTimeout 'soon' is not a duration\n  hint: "
                                + "a number with a unit: 500ms, 30s, 2m",
                        "DIR/m.yaml:13:15: error: workloads[0].load.method 'FETCH' is not an HTTP method\n  hint: one "
                                + "of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS",
                        "DIR/m.yaml:16:7: error: workloads[0].load says how to load more than one way (users, "
                                + "rate)\n  hint: closed model: users: 200 (each sends its next request when the last "
                                + "is answered); open model: rate: 500 or rate: [100, 200, 400] requests per second, "
                                + "connections: 256; or the highest rate within an objective: capacity: {objective: "
                                + "{p99: 500ms}, from: 50, to: 6400}",
                        "DIR/m.yaml:17:17: error: workloads[0].load.duration must be longer than 0\n  hint: e.g. 30s",
                        "DIR/m.yaml:18:7: error: workloads[0].load.body is sent with GET\n  hint: a request body goes "
                                + "with method: POST, PUT or PATCH");
    }

    @Test
    void aServiceNeedsItsLoadAndALoadNeedsAService() throws Exception {
        assertThat(problems(HEAD + "  - id: web\n    service: {jar: app.jar, port: 8080}\n" + VARIANTS))
                .containsExactly("DIR/m.yaml:6:5: error: workloads[0] is missing 'load'");
        assertThat(problems(
                        HEAD + "  - id: web\n    program: {jar: app.jar}\n    load: {path: /, users: 1, duration: 1s}\n"
                                + VARIANTS))
                .containsExactly("DIR/m.yaml:8:5: error: workloads[0] has a load but no service\n  hint: load: goes "
                        + "with service: (the server it loads); a JMH suite or program loads itself");
    }

    @Test
    void aUrlsFileInOhasFormatIsReadAsOhaWouldAndEachBadLineIsSaidInThatFile() throws Exception {
        Files.writeString(
                dir.resolve("orders.urls"),
                "http://orders:8080/orders?id=1\n\n  http://orders:8080/orders/7/items\nhttp://orders:8080/\n");
        Matrix matrix = parse(
                HEAD + entry("jar: app.jar\nport: 8080\n", "urlsFile: orders.urls\nusers: 10\nduration: 5s\n"),
                Optional.empty());
        UserWorkload.Service service = (UserWorkload.Service)
                matrix.workloads().get(0).user().orElseThrow().artifact();
        ServiceLoad load = service.load();
        assertThat(load.urlsFile()).contains(new ServiceLoad.UrlsFile(dir.resolve("orders.urls"), "orders:8080", 3));
        assertThat(load.paths()).isEmpty();
        assertThat(load.requests()).isEqualTo("GET orders.urls (3 URLs)");
        // the generator reads it, so the image carries it and an A/B side's digest covers it
        assertThat(service.files()).containsExactly(dir.resolve("app.jar"), dir.resolve("orders.urls"));
        assertThat(service.launchFiles()).containsExactly(dir.resolve("app.jar"));

        Files.writeString(dir.resolve("bad.urls"), "http://orders:8080/a\n   http://orders:8080/b c\n");
        assertThat(problems(HEAD + entry("jar: app.jar\nport: 8080\n", "urlsFile: bad.urls\nusers: 1\nduration: 5s\n")))
                .containsExactly("DIR/bad.urls:2:24: error: 'http://orders:8080/b c' is not a URL (Illegal character "
                        + "in path)\n  hint: one absolute URL a line, e.g. http://orders:8080/orders?id=1");
        Files.writeString(dir.resolve("two.urls"), "http://orders:8080/a\nhttp://orders:8081/b\n");
        assertThat(problems(HEAD + entry("jar: app.jar\nport: 8080\n", "urlsFile: two.urls\nusers: 1\nduration: 5s\n")))
                .containsExactly("DIR/two.urls:2:1: error: this URL names orders:8081 where the file's first names "
                        + "orders:8080\n  hint: every URL goes to the one server of the cell: name one host:port "
                        + "throughout");
        Files.writeString(dir.resolve("tls.urls"), "https://orders/a\n");
        assertThat(problems(HEAD + entry("jar: app.jar\nport: 8080\n", "urlsFile: tls.urls\nusers: 1\nduration: 5s\n")))
                .singleElement()
                .asString()
                .startsWith("DIR/tls.urls:1:1: error: 'https://orders/a' is not an http:// URL with a host");
        Files.writeString(dir.resolve("empty.urls"), "\n  \n");
        assertThat(problems(HEAD
                        + entry(
                                "jar: app.jar\nport: 8080\n",
                                "urlsFile: empty.urls\nusers: 1\nduration: 5s\npath: /x\n")))
                .containsExactly("DIR/m.yaml:11:7: error: workloads[0].load says what to request more than one way "
                        + "(path, paths, urlsFile)\n  hint: one path: path: /orders; several, one at random a request: "
                        + "paths: [/orders, /users]; or a file of URLs as oha reads them: urlsFile: requests.txt");
        assertThat(problems(
                        HEAD + entry("jar: app.jar\nport: 8080\n", "urlsFile: empty.urls\nusers: 1\nduration: 5s\n")))
                .containsExactly("DIR/m.yaml:11:17: error: workloads[0].load.urlsFile: DIR/empty.urls lists no URL\n"
                        + "  hint: one absolute URL a line, e.g. http://orders:8080/a");
        assertThat(problems(
                        HEAD + entry("jar: app.jar\nport: 8080\n", "urlsFile: nope.urls\nusers: 1\nduration: 5s\n")))
                .containsExactly("DIR/m.yaml:11:17: error: workloads[0].load.urlsFile: DIR/nope.urls does not exist\n"
                        + "  hint: a file of request URLs, one a line (http://orders:8080/orders?id=1); paths are "
                        + "relative to the matrix file");
    }

    @Test
    void aLoadMustSayWhatToRequestAndAClosedModelCannotFallShortOfARate() throws Exception {
        assertThat(problems(HEAD + entry("jar: app.jar\nport: 8080\n", "users: 5\nmaxShortfall: 5%\nduration: 5s\n")))
                .containsExactly(
                        "DIR/m.yaml:11:7: error: workloads[0].load does not say what to request\n  hint: add e.g. path: "
                                + "/orders (or paths: [...], or urlsFile: requests.txt)",
                        "DIR/m.yaml:12:7: error: workloads[0].load.maxShortfall is for an open model (rate: or capacity:)\n  hint: a "
                                + "closed model (users:) asks for no rate, so it cannot fall short of one");
        assertThat(problems(
                        HEAD + entry("jar: app.jar\nport: 8080\n", "paths: [/a, b, /c d]\nusers: 1\nduration: 5s\n")))
                .containsExactly(
                        "DIR/m.yaml:11:19: error: workloads[0].load.paths[1] 'b' is not a request path\n  hint: a path "
                                + "starts with '/' and has no spaces, e.g. /orders?limit=10",
                        "DIR/m.yaml:11:22: error: workloads[0].load.paths[2] '/c d' is not a request path\n  hint: a path "
                                + "starts with '/' and has no spaces, e.g. /orders?limit=10");
        Files.write(dir.resolve("latin1.urls"), new byte[] {'h', 't', 't', 'p', (byte) 0xe9, '\n'});
        assertThat(problems(
                        HEAD + entry("jar: app.jar\nport: 8080\n", "urlsFile: latin1.urls\nusers: 1\nduration: 5s\n")))
                .containsExactly("DIR/m.yaml:11:17: error: workloads[0].load.urlsFile: DIR/latin1.urls cannot be read "
                        + "as UTF-8 text (Input length = 1)");
    }

    @Test
    void aCapacitySearchIsAnObjectiveARangeAndAPrecisionJudgedByItsCapacity() throws Exception {
        WorkloadSpec w = parse(
                        HEAD
                                + entry(
                                        "jar: app.jar\nport: 8080\n",
                                        """
                                path: /work
                                capacity:
                                  objective: {p99: 500ms, p99.9: 2s, errors: 0.5%}
                                  from: 50
                                  to: 6400
                                  precision: 5%
                                connections: 1024
                                warmup: 2s
                                duration: 5s
                                """),
                        Optional.empty())
                .workloads()
                .get(0);
        ServiceLoad load = ((UserWorkload.Service) w.user().orElseThrow().artifact()).load();
        ServiceLoad.Capacity capacity = (ServiceLoad.Capacity) load.model();
        assertThat(capacity.objective().latencyMs()).containsExactly(Map.entry("99", 500.0), Map.entry("99.9", 2000.0));
        assertThat(capacity.objective().errorShare()).isEqualTo(0.005);
        assertThat(capacity.from()).isEqualTo(50);
        assertThat(capacity.to()).isEqualTo(6400);
        assertThat(capacity.precision()).isEqualTo(0.05);
        assertThat(capacity.connections()).isEqualTo(1024);
        assertThat(load.judgedBy()).isEqualTo(ServiceLoad.CAPACITY);
        assertThat(load.judgedBy().higherIsBetter()).isTrue();
        assertThat(capacity.levels()).containsExactly("capacity at p99 ≤ 500 ms, p99.9 ≤ 2 s, errors ≤ 0.5 %");
        // 50 → 6400 is 7 doublings (8 windows), 5 % of a factor of two is 5 bisections, then the validation
        assertThat(capacity.windows()).isEqualTo(8 + 5 + 1);
        ServiceLoad.Capacity defaults = (ServiceLoad.Capacity) ((UserWorkload.Service) parse(
                                HEAD
                                        + entry(
                                                "jar: app.jar\nport: 8080\n",
                                                "path: /w\ncapacity: {objective: {p99: 1s}, from: 10, to: 100}\n"
                                                        + "duration: 5s\n"),
                                Optional.empty())
                        .workloads()
                        .get(0)
                        .user()
                        .orElseThrow()
                        .artifact())
                .load()
                .model();
        assertThat(defaults.precision()).isEqualTo(0.10);
        assertThat(defaults.objective().errorShare()).isEqualTo(0.001);
        assertThat(defaults.connections()).isEqualTo(256);
    }

    @Test
    void aCapacitySearchsMistakesAreSaidWhereTheyAre() throws Exception {
        assertThat(problems(HEAD
                        + entry(
                                "jar: app.jar\nport: 8080\n",
                                "path: /w\ncapacity: {objective: {errors: 1%, p98: 1s}, from: 0, to: fast, "
                                        + "precision: 70%}\nduration: 5s\n")))
                .containsExactly(
                        "DIR/m.yaml:12:29: error: workloads[0].load.capacity.objective bounds no latency\n  hint: bound "
                                + "at least one percentile, e.g. objective: {p99: 500ms, errors: 0.1%}",
                        "DIR/m.yaml:12:42: error: unknown key 'p98' in workloads[0].load.capacity.objective (did you "
                                + "mean 'p90'?)\n  hint: allowed keys: p50, p90, p99, p99.9, max, errors",
                        "DIR/m.yaml:12:58: error: workloads[0].load.capacity.from must be a rate of 1 to 10000000 "
                                + "requests per second, found '0'\n  hint: capacity: {objective: {p99: 500ms, errors: "
                                + "0.1%}, from: 50, to: 6400, precision: 10%}",
                        "DIR/m.yaml:12:65: error: workloads[0].load.capacity.to must be a rate of 1 to 10000000 "
                                + "requests per second, found 'fast'\n  hint: capacity: {objective: {p99: 500ms, "
                                + "errors: 0.1%}, from: 50, to: 6400, precision: 10%}",
                        "DIR/m.yaml:12:82: error: workloads[0].load.capacity.precision above 50 % would not bisect at "
                                + "all\n  hint: e.g. 10%");
        assertThat(problems(HEAD
                        + entry(
                                "jar: app.jar\nport: 8080\n",
                                "path: /w\ncapacity: {objective: {errors: 1%}, from: 9, " + "to: 9}\nduration: 5s\n")))
                .containsExactly(
                        "DIR/m.yaml:12:29: error: workloads[0].load.capacity.objective bounds no latency\n  hint: bound "
                                + "at least one percentile, e.g. objective: {p99: 500ms, errors: 0.1%}");
        assertThat(problems(HEAD
                        + entry(
                                "jar: app.jar\nport: 8080\n",
                                "path: /w\ncapacity: {objective: {p99: 1s}, from: 100, " + "to: 100}\nduration: 5s\n")))
                .containsExactly("DIR/m.yaml:12:55: error: workloads[0].load.capacity.to must be above from (100 "
                        + "requests/s)\n  hint: the range the search may look in, e.g. from: 50, to: 6400");
        assertThat(problems(HEAD
                        + entry(
                                "jar: app.jar\nport: 8080\n",
                                "path: /w\ncapacity: {objective: {errors: 1%}, from: 100, to: 100}\nusers: 3\n"
                                        + "duration: 5s\n")))
                .containsExactly("DIR/m.yaml:12:7: error: workloads[0].load says how to load more than one way (users, "
                        + "capacity)\n  hint: closed model: users: 200 (each sends its next request when the "
                        + "last is answered); open model: rate: 500 or rate: [100, 200, 400] requests per "
                        + "second, connections: 256; or the highest rate within an objective: capacity: "
                        + "{objective: {p99: 500ms}, from: 50, to: 6400}");
    }

    @Test
    void openModelKnobsAreRefusedInAClosedModelAndRatesMustBeRates() throws Exception {
        assertThat(problems(HEAD
                        + entry(
                                "jar: app.jar\nport: 8080\n",
                                "path: /w\nusers: 5\nconnections: 9\nmaxShortfall: 5%\nduration: 5s\n")))
                .containsExactly(
                        "DIR/m.yaml:13:7: error: workloads[0].load.connections goes with rate or capacity (open model)\n  hint: in "
                                + "a closed model each of the users is one connection");
        assertThat(problems(HEAD
                        + entry(
                                "jar: app.jar\nport: 8080\nready: {tcp: true, status: 200}\n",
                                "path: w\nrate: [100, fast, 100]\nduration: 5s\nmaxShortfall: 150%\n")))
                .containsExactly(
                        "DIR/m.yaml:10:26: error: workloads[0].service.ready.status goes with http, not tcp\n  hint: "
                                + "ready: {http: /actuator/health, status: 200} (an HTTP GET), or ready: {tcp: true} "
                                + "(the port accepts a connection)",
                        "DIR/m.yaml:12:13: error: workloads[0].load.path 'w' is not a request path\n  hint: a path "
                                + "starts with '/' and has no spaces, e.g. /orders?limit=10",
                        "DIR/m.yaml:13:19: error: workloads[0].load.rate must be a number of requests per second above "
                                + "0, found text 'fast'\n  hint: e.g. rate: 500, or rate: [100, 200, 400] for a "
                                + "throughput-latency curve",
                        "DIR/m.yaml:15:21: error: workloads[0].load.maxShortfall '150%' is not a share of 0 or more "
                                + "and below 100 %\n  hint: e.g. maxShortfall: 5% (the completed rate may be 5 % below the asked "
                                + "rate)");
    }

    @Test
    void theBuiltInSpringBootServiceTakesTomcatPoolsVirtualThreadsAndWebflux() throws Exception {
        WorkloadSpec w = parse(
                        HEAD
                                + "  - {id: spring-boot, variants: [virtual, \"tomcat:200\", webflux], params: {users: 50}}\n",
                        Optional.empty())
                .workloads()
                .get(0);
        assertThat(w.variants()).containsExactly("virtual", "tomcat:200", "webflux");
        assertThat(w.params()).isEqualTo(Map.of("users", 50L, "durationS", 30L, "sleepMs", 300L, "warmupS", 10L));
        assertThat(w.user()).isEmpty();
        assertThat(Workloads.find("spring-boot").orElseThrow().service()).isTrue();
        assertThat(Workloads.find("http-server").orElseThrow().service()).isFalse();
        assertThat(problems(HEAD + "  - {id: spring-boot, variants: [virtual, \"pool:200\", \"tomcat:0\"]}\n"))
                .containsExactly(
                        "DIR/m.yaml:6:43: error: workload spring-boot has no variant 'pool:200'\n  hint: variants of "
                                + "spring-boot: virtual, webflux, tomcat:<T>",
                        "DIR/m.yaml:6:55: error: workload spring-boot has no variant 'tomcat:0'\n  hint: variants of "
                                + "spring-boot: virtual, webflux, tomcat:<T>; Tomcat's thread count is a whole number "
                                + "from 1 to 999999");
    }

    /** Issue #52: the built-in search's params are checked as a {@code capacity:} load's, each said at its params. */
    @Test
    void theBuiltInCapacitySearchRefusesARangeThatDoesNotRiseAndAPrecisionOutOfBounds() throws Exception {
        assertThat(problems(HEAD
                        + "  - {id: spring-boot-capacity, variants: [virtual], "
                        + "params: {from: 800, to: 400, precisionPercent: 60, connections: 0, p99Ms: 0}}\n"))
                .containsExactly(
                        "DIR/m.yaml:6:77: error: workloads[0].params: the rates searched must run from 1 request/s or "
                                + "more up to a higher one, got from 800 to 400\n  hint: e.g. {from: 100, to: 6400}",
                        "DIR/m.yaml:6:100: error: workloads[0].params.precisionPercent must be 1 to 50, got 60\n  hint: "
                                + "the search ends when the first failing rate is at most this many percent above the "
                                + "last passing",
                        "DIR/m.yaml:6:117: error: workloads[0].params.connections must be 1 to 100000, got 0",
                        "DIR/m.yaml:6:127: error: workloads[0].params.p99Ms must be 1 or more, got 0\n  hint: the "
                                + "objective: p99 within this many ms");
        WorkloadSpec seed = parse(
                        HEAD + "  - {id: spring-boot-capacity, variants: [virtual, \"tomcat:200\", webflux]}\n",
                        Optional.empty())
                .workloads()
                .get(0);
        assertThat(seed.params())
                .containsEntry("p99Ms", 1000L)
                .containsEntry("from", 100L)
                .containsEntry("to", 6400L)
                .containsEntry("precisionPercent", 10L);
    }

    /**
     * A capacity search's repetitions are whole searches with warmup windows and a fresh validation server each: the
     * matrix's warmup repetitions are not run for one (a search thrown away), and other cells keep theirs.
     */
    @Test
    void aCapacitySearchRunsNoWarmupRepetitions() throws Exception {
        Matrix m = parse(
                HEAD.replace("workloads:\n", "warmup: 2\nworkloads:\n")
                        + "  - {id: spring-boot-capacity, variants: [virtual]}\n"
                        + "  - {id: spring-boot, variants: [virtual]}\n"
                        + entry(
                                "jar: app.jar\nport: 8080\n",
                                """
                                path: /work
                                capacity: {objective: {p99: 500ms}, from: 50, to: 400}
                                duration: 5s
                                """),
                Optional.empty());
        Map<String, Integer> warmups = new java.util.TreeMap<>();
        dev.loommatrix.core.plan.Planner.plan(m)
                .forEach(c -> warmups.put(c.workload().id(), c.warmup()));
        assertThat(warmups).isEqualTo(Map.of("spring-boot-capacity", 0, "spring-boot", 2, "web", 0));
    }
}
