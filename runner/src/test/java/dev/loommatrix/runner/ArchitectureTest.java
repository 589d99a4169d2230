package dev.loommatrix.runner;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering the modules stand for, enforced on the compiled classes (a violation fails the build's
 * test phase): only {@code backend} talks to Docker, only {@code cli} knows picocli, only {@code publish}
 * speaks JDBC; {@code core} knows none of them and nothing of the runner; no package cycles. (The core
 * module's pom also bans those libraries from its dependencies.)
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
                .doNotHaveFullyQualifiedName("dev.loommatrix.runner.backend.service.LatencyHistogram")
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

    @Test
    void noPackageCycles() {
        slices().matching("dev.loommatrix.(*).(*)..").should().beFreeOfCycles().check(classes);
    }
}
