package dev.loommatrix.runner.backend;

/** Words for a POSIX shell: the cell scripts and the load generator's command lines the engines write. */
public final class Shell {

    private Shell() {}

    /** {@code text} as one single-quoted shell word, whatever it holds. */
    public static String quote(String text) {
        return "'" + text.replace("'", "'\"'\"'") + "'";
    }
}
