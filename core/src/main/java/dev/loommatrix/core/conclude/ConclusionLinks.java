package dev.loommatrix.core.conclude;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * Where a report's sentences link: each condition to its cell — the dashboard's cell view of the published run, or
 * the cell's record in the run directory — so every claim can be followed to its numbers in one click.
 */
public interface ConclusionLinks {

    /** The cell's numbers. */
    String cell(String cellId);

    /** The cell's explanation: its profile, pinning table and flame graphs where it has them. */
    String why(String cellId);

    /** Links into the run directory the report was made from: {@code cells/<id>.json}, relative to it. */
    static ConclusionLinks runDirectory() {
        return new ConclusionLinks() {
            @Override
            public String cell(String cellId) {
                return "cells/" + cellId + ".json";
            }

            @Override
            public String why(String cellId) {
                return cell(cellId);
            }
        };
    }

    /** Links into a published dashboard at {@code site} (its URL, ending in "/"), the run as published there. */
    static ConclusionLinks dashboard(String site, String runId) {
        String base = site.endsWith("/") ? site : site + "/";
        return new ConclusionLinks() {
            @Override
            public String cell(String cellId) {
                // the dashboard's hash route, its keys in the order its links write them
                return base + "#/cell?cell=" + encode(cellId) + "&run=" + encode(runId);
            }

            @Override
            public String why(String cellId) {
                return base + "#/cell?cell=" + encode(cellId) + "&focus=why&run=" + encode(runId);
            }
        };
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
