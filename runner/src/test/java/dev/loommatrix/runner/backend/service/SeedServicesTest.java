package dev.loommatrix.runner.backend.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.Matrix;
import dev.loommatrix.core.matrix.MatrixParser;
import dev.loommatrix.core.matrix.ServiceLoad;
import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.plan.Planner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The built-in spring-boot workload spelled out as the service cell that runs it. */
class SeedServicesTest {

    @Test
    void aSpringBootCellBecomesAServiceCellWithSpringBootsOwnSettings(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(
                dir.resolve("m.yaml"),
                """
                schema: 1
                jdks: [{id: t25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
                cpus: [1]
                workloads:
                  - {id: spring-boot, variants: [virtual, "tomcat:512", webflux], params: {users: 3000, sleepMs: 250}}
                """);
        Matrix matrix = MatrixParser.parse(file, Optional.empty());
        Cell cell = Planner.plan(matrix).get(0);
        assertThat(SeedServices.isBuiltIn(cell)).isTrue();
        // a cell that is not a built-in service runs as it is
        Cell other = Planner.plan(MatrixParser.parse(
                        Files.writeString(
                                dir.resolve("other.yaml"),
                                "schema: 1\njdks: [{id: t25, vm: hotspot, version: 25}]\ncpus: [1]\n"
                                        + "workloads: [{id: sleep-bound, variants: [virtual]}]\n"),
                        Optional.empty()))
                .get(0);
        assertThat(SeedServices.asRun(other)).contains(other);
        Path jar = Files.writeString(dir.resolve("seed-spring.jar"), "a jar");
        Cell resolved = SeedServices.resolve(cell, jar);
        assertThat(SeedServices.isBuiltIn(resolved)).isFalse();
        assertThat(resolved.id()).isEqualTo(cell.id());
        UserWorkload user = resolved.workload().user().orElseThrow();
        UserWorkload.Service service = (UserWorkload.Service) user.artifact();
        assertThat(service.jar()).contains(jar);
        assertThat(service.args()).containsExactly("--server.port=8080", "--loom.sleepMs=250");
        assertThat(service.ready()).isEqualTo(new UserWorkload.Readiness.Http("/health", 200));
        ServiceLoad load = service.load();
        assertThat(load.model()).isEqualTo(new ServiceLoad.Closed(3000));
        assertThat(load.paths()).containsExactly("/work");
        assertThat(load.warmup()).isEqualTo(Duration.ofSeconds(10));
        assertThat(load.duration()).isEqualTo(Duration.ofSeconds(30));
        assertThat(user.settings("virtual").properties()).isEqualTo(Map.of("spring.threads.virtual.enabled", "true"));
        assertThat(user.settings("tomcat:512").properties()).isEqualTo(Map.of("server.tomcat.threads.max", "512"));
        assertThat(user.settings("webflux").properties())
                .isEqualTo(Map.of("spring.main.web-application-type", "reactive"));
        assertThat(resolved.workload().variants()).isEqualTo(List.of("virtual", "tomcat:512", "webflux"));
        // Little's law with a 250 ms handler: 512 threads serve 2,048/s at most, 3,000 users 12,000/s
        assertThat(service.throughputBounds())
                .isEqualTo(Map.of("virtual", 12_000.0, "tomcat:512", 2_048.0, "webflux", 12_000.0));
    }

    /**
     * Issue #52: seed 002's service under a capacity search — the objective, range, precision and connections from
     * its params; only a pool has a Little's-law bound, threads ÷ handler time, for an open load has no users.
     */
    @Test
    void aSpringBootCapacityCellSearchesWithinItsObjectiveAndBoundsOnlyThePools(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(
                dir.resolve("m.yaml"),
                """
                schema: 1
                jdks: [{id: t25, vm: hotspot, version: 25, image: "local/debian-openjdk:25"}]
                cpus: [1]
                workloads:
                  - id: spring-boot-capacity
                    variants: [virtual, "tomcat:200", webflux]
                    params: {p99Ms: 800, from: 50, to: 3200, precisionPercent: 5, connections: 900}
                """);
        Cell cell = Planner.plan(MatrixParser.parse(file, Optional.empty())).get(0);
        assertThat(SeedServices.isBuiltIn(cell)).isTrue();
        Cell resolved = SeedServices.resolve(cell, Files.writeString(dir.resolve("seed-spring.jar"), "a jar"));
        UserWorkload.Service service =
                (UserWorkload.Service) resolved.workload().user().orElseThrow().artifact();
        assertThat(service.load().model())
                .isEqualTo(new ServiceLoad.Capacity(
                        new ServiceLoad.Objective(Map.of("99", 800.0), 0.001), 50, 3200, 0.05, 900));
        assertThat(service.load().model().levels()).containsExactly("capacity at p99 ≤ 800 ms, errors ≤ 0.1 %");
        // the defaults: 5 s of warmup and 10 s windows, a 300 ms handler: 200 threads carry 666.7/s at most
        assertThat(service.load().warmup()).isEqualTo(Duration.ofSeconds(5));
        assertThat(service.load().duration()).isEqualTo(Duration.ofSeconds(10));
        assertThat(service.throughputBounds()).containsOnlyKeys("tomcat:200");
        assertThat(service.throughputBounds().get("tomcat:200"))
                .isCloseTo(666.667, org.assertj.core.data.Offset.offset(0.001));
    }
}
