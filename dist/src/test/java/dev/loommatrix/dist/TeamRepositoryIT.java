package dev.loommatrix.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #29's "done when", tried as a team would: a fresh git repository holding only a JMH project (the
 * example's sources and its Maven wrapper), the release archive unpacked elsewhere. The archive's {@code init}
 * writes the matrix and the calling workflows (actionlint and zizmor clean); the team fills in its variants and
 * commits. Then the archive's own scripts run what the workflows run — the nightly flow (plan → one run per job →
 * merge → publish, twice) and the pull-request A/B flow (merge base against head) — with no source tree of
 * loom-matrix anywhere on the path; the A/B flags a commit that makes every blocking call 30 % slower.
 */
class TeamRepositoryIT {

    static final Path DIST = Path.of(System.getProperty("loom.dist", "target"));
    static final String NAME = "loom-matrix-" + System.getProperty("loom.version", "0.1.0-SNAPSHOT");
    static final Path ROOT = DistributionIT.ROOT;

    @Test
    void aTeamGetsNightlyResultsAndPullRequestVerdictsFromTheReleaseAlone(@TempDir Path tmp) throws Exception {
        Path install = Files.createDirectories(tmp.resolve("opt"));
        assertThat(run(
                                install,
                                env(tmp),
                                "tar",
                                "xzf",
                                DIST.resolve(NAME + ".tar.gz").toAbsolutePath().toString())
                        .code())
                .isZero();
        Path home = install.resolve(NAME);

        // the team's repository: its JMH project and its Maven wrapper, nothing of loom-matrix
        Path repo = tmp.resolve("team");
        Path example = ROOT.resolve("examples/jmh-blocking");
        copy(example.resolve("pom.xml"), repo.resolve("pom.xml"));
        copy(example.resolve("src"), repo.resolve("src"));
        copy(ROOT.resolve("mvnw"), repo.resolve("mvnw"));
        copy(
                ROOT.resolve(".mvn/wrapper/maven-wrapper.properties"),
                repo.resolve(".mvn/wrapper/maven-wrapper.properties"));
        Files.writeString(repo.resolve(".gitignore"), "target/\n");
        Map<String, String> env = env(tmp);
        git(repo, env, "init", "-q", "-b", "main");

        // loom-matrix init, from the archive
        DistributionIT.Result init =
                run(repo, env, home.resolve("bin/loom-matrix").toString(), "init");
        assertThat(init.code()).as(init.output()).isZero();
        assertThat(init.output())
                .contains("a JMH suite built by Maven")
                .contains("wrote: ./matrix.yaml")
                .contains("wrote: ./.github/workflows/benchmarks.yml")
                .contains("wrote: ./.github/workflows/benchmarks-pr.yml")
                .contains("wrote: ./.github/workflows/benchmarks-pr-comment.yml")
                .contains("wrote: ./.github/workflows/benchmarks-bisect.yml")
                .contains("Settings > Pages > Source: GitHub Actions");
        String nightly = Files.readString(repo.resolve(".github/workflows/benchmarks.yml"));
        assertThat(nightly)
                .containsPattern("uses: [\\w.-]+/[\\w.-]+/\\.github/workflows/loom-matrix-nightly\\.yml@[0-9a-f]{40}")
                .contains("build: ./mvnw -q package -DskipTests");
        assertThat(Files.readString(repo.resolve(".github/workflows/benchmarks-pr.yml")))
                .contains("profile: quick", "build: ./mvnw -q package -DskipTests");
        // the workflows init wrote pass the linters this repository's own pass
        DistributionIT.Result actionlint = run(repo, withPath(env), lint("LOOM_ACTIONLINT", "actionlint"), "-no-color");
        assertThat(actionlint.code()).as(actionlint.output()).isZero();
        DistributionIT.Result zizmor = run(
                repo,
                withPath(env),
                lint("LOOM_ZIZMOR", "zizmor"),
                "--offline",
                "--min-severity",
                "low",
                "--color",
                "never",
                ".github/workflows");
        assertThat(zizmor.code()).as(zizmor.output()).isZero();
        // a second init keeps every file as it is
        DistributionIT.Result again =
                run(repo, env, home.resolve("bin/loom-matrix").toString(), "init");
        assertThat(again.output()).doesNotContain("wrote:").contains("kept: ./.github/workflows/benchmarks.yml");

        // issue #49: the starter's variants are placeholders, refused until the team fills them in
        DistributionIT.Result unfilled =
                run(repo, env, home.resolve("bin/loom-matrix").toString(), "validate");
        assertThat(unfilled.code()).as(unfilled.output()).isEqualTo(2);
        assertThat(unfilled.output()).contains("still has the placeholder '<property your code reads>'");

        // the team fills in its variants (the suite's @Param), one benchmark, and this host's JDK
        Path matrix = repo.resolve("matrix.yaml");
        String starter = Files.readString(matrix);
        String filled = starter.replaceFirst(
                        "(?s)jdks:\n.*?\ncpus:",
                        "jdks:\n  - {id: host, vm: hotspot, version: %d, javaHome: \"%s\"}\n\ncpus:"
                                .formatted(Runtime.version().feature(), DistributionIT.jdk()))
                .replace(
                        "include: ['.*']",
                        "include: ['BlockingServiceBenchmark\\.threadsByParam$']\n"
                                + "      params: {poolSize: [50], requests: [100]}")
                .replace(
                        "virtual: {properties: {\"<property your code reads>\": virtual}}",
                        "virtual: {params: {threadType: VIRTUAL}}")
                .replace(
                        "platform: {properties: {\"<property your code reads>\": platform}}",
                        "platform: {params: {threadType: PLATFORM}}");
        assertThat(filled).isNotEqualTo(starter).contains("threadType: VIRTUAL", "javaHome:");
        Files.writeString(matrix, filled);
        git(repo, env, "add", "-A");
        git(repo, env, "commit", "-q", "-m", "benchmarks with loom-matrix");

        // what the workflows' build input does (offline here: the machine's Maven repository holds JMH)
        String build = "./mvnw -q -B -o package -DskipTests";
        DistributionIT.Result built = run(repo, env, "bash", "-c", build);
        assertThat(built.code()).as(built.output()).isZero();

        // the nightly flow, from the archive's scripts
        Path work = tmp.resolve("nightly");
        DistributionIT.Result pipeline = run(
                repo,
                env,
                home.resolve("ci/pipeline.sh").toString(),
                work.toString(),
                matrix.toString(),
                "quick",
                "local");
        assertThat(pipeline.output()).doesNotContain(ROOT.toString());
        // the two nightlies measured the same code: compare finds no regression (exit 4 would be a false alarm)
        assertThat(pipeline.code()).as(pipeline.output()).isZero();
        JsonNode index =
                new ObjectMapper().readTree(work.resolve("site/data/index.json").toFile());
        assertThat(index.get("runs")).hasSize(2);
        for (JsonNode published : index.get("runs")) {
            assertThat(published.get("ok").asInt())
                    .as(published.toString())
                    .isEqualTo(published.get("cells").asInt());
        }

        // the pull request: every blocking call 10 → 13 ms
        Path benchmark = repo.resolve("src/main/java/example/blocking/BlockingServiceBenchmark.java");
        String source = Files.readString(benchmark);
        assertThat(source).contains("Duration.ofMillis(10)");
        Files.writeString(benchmark, source.replace("Duration.ofMillis(10)", "Duration.ofMillis(13)"));
        git(repo, env, "commit", "-q", "-am", "slower downstream calls");
        Map<String, String> abEnv = new HashMap<>(env);
        abEnv.put("LOOM_BENCHMARK_BUILD", build);
        DistributionIT.Result ab = run(
                repo,
                abEnv,
                home.resolve("ci/ab.sh").toString(),
                tmp.resolve("pr").toString(),
                "HEAD~1",
                "--profile",
                "quick",
                "--backend",
                "local",
                "--blocks",
                "6");
        assertThat(ab.output()).doesNotContain(ROOT.toString());
        assertThat(ab.code()).as(ab.output()).isEqualTo(4);
        JsonNode report =
                new ObjectMapper().readTree(tmp.resolve("pr/ab/compare.json").toFile());
        assertThat(report.get("regressions").asInt()).as(report.toString()).isPositive();
        for (JsonNode c : report.get("comparisons")) {
            assertThat(c.get("verdict").asText()).as(c.toString()).isEqualTo("regression");
            assertThat(c.get("ratio").asDouble()).as(c.toString()).isGreaterThan(1.1);
        }
        assertThat(Files.readString(tmp.resolve("pr/ab/compare.md"))).contains("A/B: head ");
    }

    /** Only the system's tools on the path (git, tar, bash): no loom-matrix, no Maven of this source tree. */
    private static Map<String, String> env(Path tmp) {
        Map<String, String> env = new HashMap<>();
        env.put("PATH", "/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin");
        env.put("JAVA_HOME", DistributionIT.jdk());
        env.put("HOME", System.getProperty("user.home")); // the machine's Maven repository; the CLI's start-up cache
        env.put("GIT_AUTHOR_NAME", "team");
        env.put("GIT_AUTHOR_EMAIL", "team@example.com");
        env.put("GIT_COMMITTER_NAME", "team");
        env.put("GIT_COMMITTER_EMAIL", "team@example.com");
        return env;
    }

    /** The linters where the environment put them (zizmor from pip lives on the caller's PATH). */
    private static Map<String, String> withPath(Map<String, String> env) {
        Map<String, String> with = new HashMap<>(env);
        with.put("PATH", System.getenv("PATH"));
        return with;
    }

    private static String lint(String variable, String name) {
        return System.getenv().getOrDefault(variable, name);
    }

    private static void git(Path repo, Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        DistributionIT.Result result = run(repo, env, command.toArray(String[]::new));
        assertThat(result.code()).as(result.output()).isZero();
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.filter(p -> !p.toString().contains("/target/")).toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(f, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /** As DistributionIT runs a command, with the time a build and an A/B need. */
    static DistributionIT.Result run(Path dir, Map<String, String> env, String... command)
            throws IOException, InterruptedException {
        return DistributionIT.run(dir, env, 20, command);
    }
}
