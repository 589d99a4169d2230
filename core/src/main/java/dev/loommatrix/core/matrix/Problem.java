package dev.loommatrix.core.matrix;

import java.util.Optional;

/** One thing wrong with a matrix file, at a 1-based line and column, with a hint where one helps. */
public record Problem(String file, int line, int column, String message, Optional<String> hint) {

    public String format() {
        String text = file + ":" + line + ":" + column + ": error: " + message;
        return hint.map(h -> text + "\n  hint: " + h).orElse(text);
    }
}
