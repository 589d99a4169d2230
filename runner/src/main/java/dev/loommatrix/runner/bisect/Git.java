package dev.loommatrix.runner.bisect;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The git commands a bisection needs, in one repository: refs, the commits between two, worktrees. */
final class Git {

    /** A commit: its full id and its subject line. */
    record Commit(String id, String subject) {
        String shortId() {
            return id.substring(0, Math.min(12, id.length()));
        }
    }

    /** A git command that failed: its words, for the user. */
    static final class GitException extends IOException {
        GitException(String message) {
            super(message);
        }
    }

    private final Path repository;

    Git(Path repository) {
        this.repository = repository;
    }

    /** The commit a ref names, or empty when it names none. */
    Optional<Commit> resolve(String ref) throws IOException, InterruptedException {
        Result r = run("log", "-1", "--format=%H%x09%s", ref + "^{commit}", "--");
        return r.code() == 0 && !r.out().isBlank() ? Optional.of(commit(r.out().strip())) : Optional.empty();
    }

    /** Whether {@code ancestor} is an ancestor of {@code descendant}. */
    boolean isAncestor(Commit ancestor, Commit descendant) throws IOException, InterruptedException {
        return run("merge-base", "--is-ancestor", ancestor.id(), descendant.id())
                        .code()
                == 0;
    }

    /**
     * The commits after {@code good} up to {@code bad}, oldest first, on the first-parent line (a merged branch is one
     * commit, its merge, as the main line saw it).
     */
    List<Commit> between(Commit good, Commit bad) throws IOException, InterruptedException {
        Result r = run("log", "--reverse", "--first-parent", "--format=%H%x09%s", good.id() + ".." + bad.id(), "--");
        if (r.code() != 0) {
            throw new GitException("git log " + good.shortId() + ".." + bad.shortId() + " failed: "
                    + r.err().strip());
        }
        List<Commit> commits = new ArrayList<>();
        for (String line : r.out().split("\n")) {
            if (!line.isBlank()) {
                commits.add(commit(line));
            }
        }
        return commits;
    }

    /** A detached worktree of {@code commit} at {@code dir}, made once: a bisection resumed finds it there. */
    void worktree(Commit commit, Path dir) throws IOException, InterruptedException {
        if (java.nio.file.Files.isDirectory(dir.resolve(".git"))
                || java.nio.file.Files.isRegularFile(dir.resolve(".git"))) {
            return;
        }
        Result r = run("worktree", "add", "--detach", "--force", dir.toString(), commit.id());
        if (r.code() != 0) {
            throw new GitException("git worktree add " + dir + " " + commit.shortId() + " failed: "
                    + r.err().strip());
        }
    }

    private static Commit commit(String line) {
        int tab = line.indexOf('\t');
        return tab < 0 ? new Commit(line, "") : new Commit(line.substring(0, tab), line.substring(tab + 1));
    }

    private record Result(int code, String out, String err) {}

    private Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git", "-C", repository.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        // git's output here is small (ids and subjects): read both after each other without a deadlock risk
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        return new Result(
                p.waitFor(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}
