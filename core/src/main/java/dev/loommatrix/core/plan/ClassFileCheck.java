package dev.loommatrix.core.plan;

import dev.loommatrix.core.matrix.ClassFiles;
import dev.loommatrix.core.matrix.MatrixException;
import dev.loommatrix.core.matrix.Problem;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Cells that cannot run their workload because their JDK is older than its classes (issue #32): caught when the
 * matrix is planned — by validate, plan, run and ab alike — and said at the workload's entry, with the cells and
 * what would let them run, instead of a JVM that fails at run time with an {@code UnsupportedClassVersionError}.
 */
public final class ClassFileCheck {

    private ClassFileCheck() {}

    /** The planned cells, or the problems of the ones whose JDK cannot load their workload's classes. */
    public static List<Cell> check(List<Cell> cells) throws MatrixException {
        List<Problem> problems = problems(cells);
        if (!problems.isEmpty()) {
            throw new MatrixException(problems);
        }
        return cells;
    }

    static List<Problem> problems(List<Cell> cells) {
        // per workload and JDK: the cells that cannot run, in plan order
        Map<String, List<Cell>> cannot = new LinkedHashMap<>();
        for (Cell cell : cells) {
            var needs = cell.workload().user().flatMap(u -> u.needs());
            if (needs.isPresent() && cell.jdk().version() < needs.get().java()) {
                cannot.computeIfAbsent(
                                cell.workload().id() + "\u0000" + cell.jdk().id(), k -> new ArrayList<>())
                        .add(cell);
            }
        }
        List<Problem> problems = new ArrayList<>();
        cannot.values().forEach(group -> {
            Cell first = group.get(0);
            ClassFiles.Needs needs =
                    first.workload().user().orElseThrow().needs().orElseThrow();
            String workload = first.workload().id();
            String jdk = first.jdk().id();
            problems.add(needs.where()
                    .problem(
                            "workload '" + workload + "' needs Java " + needs.java() + " (" + needs.className()
                                    + " in " + needs.file().getFileName() + " is class file " + needs.major()
                                    + "), but jdk '" + jdk + "' is Java "
                                    + first.jdk().version() + ": "
                                    + group.size() + (group.size() == 1 ? " cell" : " cells") + " cannot run it ("
                                    + ids(group) + ")",
                            "compile for the oldest JDK it runs on (javac --release "
                                    + first.jdk().version()
                                    + ", Maven's maven.compiler.release), or leave the pair out: exclude: [{jdk: "
                                    + jdk + ", workload: " + workload + "}]"));
        });
        return problems;
    }

    private static String ids(List<Cell> group) {
        List<String> ids = group.stream().map(Cell::id).toList();
        return ids.size() <= 3
                ? String.join(", ", ids)
                : String.join(", ", ids.subList(0, 2)) + " and " + (ids.size() - 2) + " more";
    }
}
