package dev.loommatrix.runner.records;

/** The names of the files a cell's raw directory holds, which the engines write and the readers here read. */
public final class CellFiles {

    private CellFiles() {}

    /** {@code java -version} as the cell's environment makes it speak, recorded once per cell. */
    public static final String JAVA_VERSION_FILE = "java-version.txt";

    /** File names of a variant's outputs ("pool:200" → "pool-200"). */
    public static String slug(String variant) {
        return variant.replace(':', '-');
    }
}
