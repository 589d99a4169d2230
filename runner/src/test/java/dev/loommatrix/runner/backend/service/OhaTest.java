package dev.loommatrix.runner.backend.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The script that builds oha builds the version the runner expects (it holds a literal of its own). */
class OhaTest {

    @Test
    void theBuildScriptBuildsTheVersionTheRunnerExpects() throws Exception {
        String script = Files.readString(Path.of("../containers/loadgen/build-oha.sh"));
        assertThat(script).containsOnlyOnce("version=\"" + Oha.VERSION + "\"");
    }
}
