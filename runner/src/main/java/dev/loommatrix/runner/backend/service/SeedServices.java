package dev.loommatrix.runner.backend.service;

import dev.loommatrix.core.matrix.Contrast;
import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.matrix.WorkloadSpec;
import dev.loommatrix.core.matrix.Workloads;
import dev.loommatrix.core.plan.Cell;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;

/**
 * The built-in service workloads (issue #28): seed 002's web service with the real Spring Boot, {@code spring-boot}
 * in the catalogue. Its server is the {@code seed-services} module's jar, which the build puts beside the runner
 * ({@code runner/target/services/seed-spring.jar}); a cell of it runs as a service cell whose server is that jar,
 * its variants Spring Boot's own settings and its load the seed's: closed-model users on {@code GET /work}.
 */
public final class SeedServices {

    static final String JAR = "seed-spring.jar";
    static final int PORT = 8080;

    private SeedServices() {}

    /** Whether the cell is a built-in service that still needs its server resolved. */
    public static boolean isBuiltIn(Cell cell) {
        return cell.workload().user().isEmpty()
                && Workloads.find(cell.workload().id())
                        .map(Workloads.Definition::service)
                        .orElse(false);
    }

    /**
     * Where the seed services' jars are: {@code -Dloom.services} (the launcher sets it), else {@code services/}
     * beside the runner's classes or jar (target/services in the build).
     */
    public static Optional<Path> jar() {
        String property = System.getProperty("loom.services", "");
        List<Path> candidates = new java.util.ArrayList<>();
        if (!property.isBlank()) {
            candidates.add(Path.of(property).resolve(JAR));
        }
        try {
            Path code = Path.of(SeedServices.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            // target/classes → target/services; target/launch/<hash>/loom-matrix.jar has the property instead
            candidates.add(code.getParent().resolve("services").resolve(JAR));
        } catch (java.net.URISyntaxException | RuntimeException e) {
            // no code source: only the property can say
        }
        return candidates.stream().filter(Files::isRegularFile).findFirst();
    }

    /**
     * The cell as an engine runs it: a built-in service with its server spelled out ({@link #resolve}), any other
     * cell as it is; empty when the built-in's server is not built here ({@link #missing} says how to build it).
     */
    public static Optional<Cell> asRun(Cell cell) {
        if (!isBuiltIn(cell)) {
            return Optional.of(cell);
        }
        return jar().map(server -> resolve(cell, server));
    }

    public static String missing() {
        return "the built-in spring-boot workload's server (" + JAR + ") is not built here; build it with "
                + "./mvnw package (the seed-services module)";
    }

    /** The cell with its built-in service spelled out as the service cell that runs it. */
    public static Cell resolve(Cell cell, Path jar) {
        Map<String, Long> p = cell.workload().params();
        Map<String, UserWorkload.VariantSettings> variants = new LinkedHashMap<>();
        for (String variant : cell.workload().variants()) {
            variants.put(variant, settings(variant));
        }
        boolean search = cell.workload().id().equals(Workloads.SPRING_BOOT_CAPACITY);
        ServiceLoad load = new ServiceLoad(
                "GET",
                List.of("/work"),
                Map.of(),
                Optional.empty(),
                search ? ServiceLoad.Capacity.ofBuiltIn(p) : new ServiceLoad.Closed(Math.toIntExact(p.get("users"))),
                Duration.ofSeconds(p.get("warmupS")),
                Duration.ofSeconds(p.get("durationS")),
                Optional.empty(),
                ServiceLoad.DEFAULT_MAX_SHORTFALL);
        // Little's law: a pool of T threads each holding a request for S serves at most min(users, T) / S — under a
        // capacity search, whose rate has no users to bound it, T / S
        Map<String, Double> bounds = new LinkedHashMap<>();
        double seconds = p.get("sleepMs") / 1000.0;
        for (String variant : cell.workload().variants()) {
            Matcher tomcat = Workloads.TOMCAT.matcher(variant);
            java.util.OptionalLong threads = tomcat.matches()
                    ? java.util.OptionalLong.of(Long.parseLong(tomcat.group(1)))
                    : java.util.OptionalLong.empty();
            java.util.OptionalLong concurrent = search
                    ? threads
                    : java.util.OptionalLong.of(Math.min(p.get("users"), threads.orElse(Long.MAX_VALUE)));
            if (seconds > 0 && concurrent.isPresent()) {
                bounds.put(variant, concurrent.getAsLong() / seconds);
            }
        }
        UserWorkload.Service service = new UserWorkload.Service(
                Optional.of(jar),
                List.of(),
                Optional.empty(),
                List.of("--server.port=" + PORT, "--loom.sleepMs=" + p.get("sleepMs")),
                Map.of(),
                PORT,
                new UserWorkload.Readiness.Http("/health", 200),
                Duration.ofMinutes(3),
                load,
                bounds);
        String baseline = cell.workload().variants().get(0);
        UserWorkload user = new UserWorkload(
                service,
                variants,
                baseline,
                Workloads.find(cell.workload().id())
                        .map(Workloads.Definition::contrast)
                        .orElse(Contrast.over("virtual", baseline, "virtual threads")));
        WorkloadSpec spec = new WorkloadSpec(
                cell.workload().id(),
                cell.workload().variants(),
                cell.workload().params(),
                Optional.of(user),
                cell.workload().iterations());
        return cell.withWorkload(spec);
    }

    /** A variant as Spring Boot's own settings: the pool's size, virtual threads, or WebFlux on Netty. */
    static UserWorkload.VariantSettings settings(String variant) {
        Map<String, String> properties = new LinkedHashMap<>();
        Matcher tomcat = Workloads.TOMCAT.matcher(variant);
        if (tomcat.matches()) {
            properties.put("server.tomcat.threads.max", tomcat.group(1));
        } else if (variant.equals("virtual")) {
            properties.put("spring.threads.virtual.enabled", "true");
        } else if (variant.equals("webflux")) {
            properties.put("spring.main.web-application-type", "reactive");
        } else {
            throw new IllegalArgumentException("spring-boot has no variant " + variant); // the parser refused it
        }
        return new UserWorkload.VariantSettings(List.of(), properties, Map.of(), List.of(), Map.of());
    }
}
