package dev.loommatrix.core.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/**
 * JMH uber-jars for tests that read, not run, them: the {@code META-INF/BenchmarkList} the example project's
 * real build wrote (fixtures/jmh/BenchmarkList, from examples/jmh-blocking's target/benchmarks.jar, JMH
 * 1.37) and JMH's launcher entry, as the matrix reader looks for them.
 */
public final class JmhJars {

    private JmhJars() {}

    /** The example's benchmark list in a jar under {@code dir}. */
    public static Path blockingExample(Path dir) throws IOException {
        try (InputStream list = JmhJars.class.getResourceAsStream("/fixtures/jmh/BenchmarkList")) {
            return jar(dir.resolve("benchmarks.jar"), list.readAllBytes(), true);
        }
    }

    /**
     * A suite whose alternatives are benchmark methods (runner's test project jmh-methods: {@code
     * GuardedCallBenchmark.synchronizedCall} beside {@code reentrantLockCall}), its list as that build wrote it.
     */
    public static Path methodsSuite(Path dir) throws IOException {
        try (InputStream list = JmhJars.class.getResourceAsStream("/fixtures/jmh/BenchmarkList-methods")) {
            return jar(dir.resolve("methods.jar"), list.readAllBytes(), true);
        }
    }

    /** A jar with the given entries: a BenchmarkList if not null, JMH's launcher if asked. */
    public static Path jar(Path file, byte[] benchmarkList, boolean withJmh) throws IOException {
        try (OutputStream out = Files.newOutputStream(file);
                JarOutputStream jar = new JarOutputStream(out)) {
            if (withJmh) {
                jar.putNextEntry(new JarEntry("org/openjdk/jmh/Main.class"));
                jar.write(new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE});
                jar.closeEntry();
            }
            if (benchmarkList != null) {
                jar.putNextEntry(new JarEntry("META-INF/BenchmarkList"));
                jar.write(benchmarkList);
                jar.closeEntry();
            }
        }
        return file;
    }
}
