package dev.loommatrix.runner.backend.service;

import dev.loommatrix.runner.backend.UserCommand;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

/**
 * What an engine does for a service cell: start a fresh server JVM per repetition where the cell's limits
 * hold, and run the load generator's scripts where the server's quota does not (its own CPUs when the host
 * has spare ones). The container engine puts them in two containers on a network of the cell's own; the
 * local engine runs both as host processes pinned to disjoint CPUs.
 */
public interface ServiceHost extends AutoCloseable {

    /** Starts the server of one repetition of a variant with this command. */
    Server start(String variant, int run, UserCommand.Launch launch) throws IOException, InterruptedException;

    /** Runs a shell script beside the generator (bash) and returns what it printed; empty if it overran. */
    Optional<String> generator(String script, Duration timeout) throws IOException, InterruptedException;

    /** The server as the generator reaches it: {@code host:port}. */
    String serverAddress();

    /** The oha binary as the generator side names it. */
    String oha();

    /** A scratch directory on the generator side for oha's reports. */
    String scratch();

    /** A directory on the generator side whose files {@link #fetch} brings back (oha's request database). */
    String keep();

    /** Brings the generator side's file at {@code path} (in {@link #keep()}) to {@code target}; false if absent. */
    boolean fetch(String path, java.nio.file.Path target) throws IOException;

    /** Where the server and the generator run. */
    ServicePlacement placement();

    /** How many CPUs the generator has (its cpuset's size, else the host's). */
    default int generatorCpus() {
        return placement().generatorCpus();
    }

    /** How the generator's CPUs relate to the server's, for the record (e.g. "CPUs 1 (the server on 0)"). */
    default String generatorPlacement() {
        return placement().words();
    }

    @Override
    void close();

    /** One server JVM. */
    interface Server {
        boolean alive() throws InterruptedException;

        /** Its exit code once it has ended. */
        Optional<Integer> exitCode() throws InterruptedException;

        /**
         * The CPU time the server has used so far, in seconds, where the engine can read it: a capacity search
         * compares it over the found rate's window with the cell's CPU quota, to say whether the CPU set the limit.
         */
        default Optional<Double> cpuSeconds() throws IOException, InterruptedException {
            return Optional.empty();
        }

        /**
         * Stops it as an orchestrator would (SIGTERM, so its shutdown hooks run and the agent writes its record),
         * killing it after a grace period; its records reach the cell's raw directory; returns its whole log.
         */
        String stop() throws IOException, InterruptedException;
    }
}
