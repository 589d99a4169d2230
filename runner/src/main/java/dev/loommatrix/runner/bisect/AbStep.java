package dev.loommatrix.runner.bisect;

import java.io.PrintStream;
import java.util.List;

/**
 * Runs {@code loom-matrix ab} with these arguments, its console to {@code log}, and returns its exit code: the A/B
 * engine as it is, lockstep pairs, sequential looks and all. The command line supplies it (the bisection sits below
 * the command line and does not reach up into it).
 */
@FunctionalInterface
public interface AbStep {
    int run(List<String> args, PrintStream log) throws Exception;
}
