package dev.loommatrix.runner.matrix;

import java.util.List;
import java.util.stream.Collectors;

/** A matrix file that cannot be used; carries every problem found, not just the first. */
public final class MatrixException extends Exception {

    private static final long serialVersionUID = 1L;
    private final transient List<Problem> problems;

    public MatrixException(List<Problem> problems) {
        super(problems.stream().map(Problem::format).collect(Collectors.joining("\n")));
        this.problems = List.copyOf(problems);
    }

    public List<Problem> problems() {
        return problems;
    }
}
