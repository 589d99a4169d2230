package dev.loommatrix.runner.backend.local;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.runner.backend.UserCommand;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What this host gives the local backend's cells: its process running, drivers, jars, flame library, {@code taskset}
 * and CPUs.
 */
record HostTools(
        String backend,
        LocalProcesses processes,
        LocalDrivers drivers,
        BuiltInJars jars,
        FlameLibrary flame,
        Optional<Path> taskset,
        int hostCpus) {

    /** Where a user workload's files and this host's JDK are, as its JVM sees them. */
    UserCommand.Paths userPaths(Cell cell, JdkLocator.FoundJdk jdk, Path rawDir) throws IOException {
        return new UserCommand.Paths(
                jdk.java().toString(),
                jars.agent().toString(),
                cell.workload().user().get().artifact().files().stream()
                        .map(Path::toString)
                        .toList(),
                rawDir.toAbsolutePath().toString(),
                File.pathSeparator);
    }

    /** The JDK a cell ran with, for its record's driver. */
    static String jdkWords(JdkLocator.FoundJdk jdk) {
        return "jdk " + jdk.home() + " (" + jdk.source() + ")";
    }
}
