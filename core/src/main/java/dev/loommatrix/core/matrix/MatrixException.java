package dev.loommatrix.core.matrix;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/** A matrix file that cannot be used; carries every problem found, not just the first, in file order. */
public final class MatrixException extends Exception {

    private static final long serialVersionUID = 1L;
    private final transient List<Problem> problems;

    public MatrixException(List<Problem> problems) {
        super(inFileOrder(problems).stream().map(Problem::format).collect(Collectors.joining("\n")));
        this.problems = inFileOrder(problems);
    }

    public List<Problem> problems() {
        return problems;
    }

    /** As a reader goes through the file fixing them. */
    private static List<Problem> inFileOrder(List<Problem> problems) {
        return problems.stream()
                .sorted(Comparator.comparingInt(Problem::line).thenComparingInt(Problem::column))
                .toList();
    }
}
