package dev.loommatrix.runner;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering the modules stand for, enforced on the compiled classes (a violation fails the build's
 * test phase): only {@code backend} talks to Docker, only {@code cli} knows picocli, only {@code publish}
 * speaks JDBC; {@code core} knows none of them and nothing of the runner; no two packages depend on each other;
 * and the runner's rooms stand in layers — the commands on top, then the matrix run, the A/B method and the bisection (which runs its A/Bs through
 * the command line it is given, never reaching up), then the
 * engines, then the readers of raw output and this host's facts. (The core module's pom also bans those libraries
 * from its dependencies.)
 */
class ArchitectureTest {

    static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar")) // core's shared test helpers
                .importPackages("dev.loommatrix.core", "dev.loommatrix.runner");
    }

    @Test
    void onlyTheBackendTalksToDocker() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.loommatrix.runner.backend..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.testcontainers..", "com.github.dockerjava..")
                .because("containers are the backend's business; the rest of the runner sees outcomes")
                .check(classes);
    }

    @Test
    void onlyTheCliKnowsPicocli() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.loommatrix.runner.cli..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("picocli..")
                .because("commands are parsed in one place; everything below takes typed values")
                .check(classes);
    }

    @Test
    void onlyPublishSpeaksJdbc() {
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.loommatrix.runner.publish..")
                .and()
                .doNotHaveFullyQualifiedName("dev.loommatrix.runner.records.LatencyHistogram")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "javax.sql..", "org.postgresql..", "org.flywaydb..")
                .because("the Grafana database is one sink of publish (LatencyHistogram only reads the SQLite file"
                        + " the load generator wrote)")
                .check(classes);
        noClasses()
                .that()
                .resideOutsideOfPackage("dev.loommatrix.runner.publish..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.postgresql..", "org.flywaydb..")
                .because("the Grafana database is one sink of publish")
                .check(classes);
    }

    @Test
    void coreKnowsNothingOfTheRunner() {
        noClasses()
                .that()
                .resideInAPackage("dev.loommatrix.core..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.loommatrix.runner..",
                        "dev.loommatrix.harness..",
                        "org.testcontainers..",
                        "com.github.dockerjava..",
                        "picocli..",
                        "java.sql..",
                        "java.net.http..",
                        "com.sun.net.httpserver..",
                        "me.tongfei..")
                .because("core is the model and the pure logic every other part stands on")
                .check(classes);
    }

    /** Every package is a slice of its own, so two sibling or nested packages that use each other fail. */
    static final ArchRule NO_PACKAGE_CYCLES =
            slices().matching("dev.loommatrix.(**)").should().beFreeOfCycles();

    static final ArchRule LAYERS = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("commands")
            .definedBy("dev.loommatrix.runner.cli..")
            .layer("publishing, team starters, pruning")
            .definedBy(
                    "dev.loommatrix.runner.publish..", "dev.loommatrix.runner.init..", "dev.loommatrix.runner.prune..")
            .layer("matrix run and A/B method")
            .definedBy("dev.loommatrix.runner.run..", "dev.loommatrix.runner.ab..", "dev.loommatrix.runner.bisect..")
            .layer("engines")
            .definedBy("dev.loommatrix.runner.backend..")
            .layer("records")
            .definedBy("dev.loommatrix.runner.records..")
            .layer("host")
            .definedBy("dev.loommatrix.runner.host..")
            .layer("core")
            .definedBy("dev.loommatrix.core..")
            .whereLayer("commands")
            .mayNotBeAccessedByAnyLayer()
            .whereLayer("publishing, team starters, pruning")
            .mayOnlyBeAccessedByLayers("commands")
            .whereLayer("matrix run and A/B method")
            .mayOnlyBeAccessedByLayers("commands")
            .whereLayer("engines")
            .mayOnlyBeAccessedByLayers("commands", "publishing, team starters, pruning", "matrix run and A/B method")
            .whereLayer("records")
            .mayOnlyBeAccessedByLayers(
                    "commands", "publishing, team starters, pruning", "matrix run and A/B method", "engines")
            .whereLayer("host")
            .mayOnlyBeAccessedByLayers(
                    "commands",
                    "publishing, team starters, pruning",
                    "matrix run and A/B method",
                    "engines",
                    "records");

    @Test
    void noPackageCycles() {
        NO_PACKAGE_CYCLES.check(classes);
    }

    @Test
    void theRunnerStandsInLayers() {
        LAYERS.check(classes);
    }

    @Test
    void theMatrixRunKnowsNothingOfTheAbMethod() {
        noClasses()
                .that()
                .resideInAPackage("dev.loommatrix.runner.run..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.loommatrix.runner.ab..")
                .because("the A/B method drives matrix runs; a matrix run never needs the A/B method")
                .check(classes);
    }

    /** The cycle rule sees a cycle between a package and the one nested in it (test classes plant one). */
    @Test
    void aPlantedCycleFails() {
        JavaClasses planted = new ClassFileImporter().importPackages("dev.loommatrix.archfixture");
        EvaluationResult cycles = NO_PACKAGE_CYCLES.evaluate(planted);
        assertThat(cycles.hasViolation()).isTrue();
        assertThat(cycles.getFailureReport().toString())
                .contains("dev.loommatrix.archfixture.engine")
                .contains("dev.loommatrix.archfixture.engine.service");
    }
}
