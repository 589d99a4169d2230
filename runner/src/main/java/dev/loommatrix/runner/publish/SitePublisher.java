package dev.loommatrix.runner.publish;

import static org.apache.commons.text.StringEscapeUtils.escapeHtml4;

import dev.loommatrix.runner.matrix.Workloads;
import dev.loommatrix.runner.result.CellRecord;
import dev.loommatrix.runner.result.Json;
import dev.loommatrix.runner.result.Measurement;
import dev.loommatrix.runner.result.RunDirectory;
import dev.loommatrix.runner.result.RunManifest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Writes a run into a static site: the run's data under {@code data/runs/<runId>/} and an
 * {@code index.html} that lists every cell with its coordinates, status, attestation and the median
 * of each variant. Every string from the data is escaped: branch names and reasons are user text.
 */
public final class SitePublisher {

    private SitePublisher() {}

    public static Path publish(RunDirectory run, Path site) throws IOException {
        return publish(run, site, Optional.empty()).page();
    }

    /** What publish wrote: the page, the history after it, and anything the user should know. */
    public record Published(Path page, History.Outcome history) {}

    /**
     * Adds the run to the site's history (see {@link History}) and renders the page for the newest run
     * in it — republishing an older run does not take the page back in time.
     */
    public static Published publish(RunDirectory run, Path site, Optional<Integer> keep) throws IOException {
        RunManifest manifest = run.readManifest();
        List<CellRecord> cells = run.readCells();
        History.Outcome history = History.add(site, manifest, cells, keep);
        History.Entry newest = history.index().runs().getLast();
        Path newestDir = History.runDir(site, newest.runId());
        RunManifest shown = newest.runId().equals(manifest.runId())
                ? manifest
                : Json.MAPPER.readValue(newestDir.resolve("run.json").toFile(), RunManifest.class);
        List<CellRecord> shownCells = newest.runId().equals(manifest.runId())
                ? cells
                : List.of(Json.MAPPER.readValue(newestDir.resolve("cells.json").toFile(), CellRecord[].class));
        Path page = site.resolve("index.html");
        Json.writeAtomically(page, html(shown, shownCells));
        return new Published(page, history);
    }

    static String html(RunManifest manifest, List<CellRecord> cells) {
        StringBuilder rows = new StringBuilder();
        for (CellRecord cell : cells) {
            var c = cell.coordinates();
            String attested = cell.environment()
                    .map(e -> e.attested() ? "attested" : "not attested")
                    .orElse("—");
            String medians = cell.measurements().stream()
                    .map(m -> median(m, headline(cell)))
                    .collect(Collectors.joining("<br>"));
            String reason = cell.reason()
                    .map(r -> "<div class=\"reason\">" + escapeHtml4(r) + "</div>")
                    .orElse("");
            rows.append("<tr data-cell-id=\"")
                    .append(escapeHtml4(cell.cellId()))
                    .append("\" class=\"status-")
                    .append(escapeHtml4(cell.status()))
                    .append("\">")
                    .append(td(cell.cellId()))
                    .append(td(c.jdk()))
                    .append(td(c.vm() + " " + c.version()))
                    .append(td(c.os()))
                    .append(td(c.cpus().toPlainString()))
                    .append(td(c.parallelism()))
                    .append(td(c.maxPoolSize()))
                    .append(td(c.minRunnable()))
                    .append(td(c.workload()))
                    .append("<td class=\"status\">")
                    .append(escapeHtml4(cell.status()))
                    .append(reason)
                    .append("</td>")
                    .append(td(attested))
                    .append("<td class=\"medians\">")
                    .append(medians)
                    .append("</td></tr>\n");
        }
        long ok = cells.stream().filter(c -> c.status().equals("ok")).count();
        return """
                <!doctype html>
                <html lang="en">
                <head>
                <meta charset="utf-8">
                <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src 'self'">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>loom-matrix — run %s</title>
                <style>
                  body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1b1b1b; background: #fff; }
                  table { border-collapse: collapse; width: 100%%; }
                  th, td { border: 1px solid #ccc; padding: .3rem .5rem; text-align: left; vertical-align: top; }
                  th { background: #f0f0f0; }
                  .status-ok .status { color: #0a6b2c; } .status-failed .status, .status-timeout .status { color: #a11; }
                  .status-skipped .status { color: #666; } .reason { font-size: 12px; color: #555; }
                  @media (prefers-color-scheme: dark) { body { background: #111; color: #eee; } th { background: #222; } td, th { border-color: #444; } }
                </style>
                </head>
                <body>
                <h1>loom-matrix run <code>%s</code></h1>
                <p id="summary">%d cells, %d ok · started %s · profile %s · commit <code>%s</code> on <code>%s</code> · host %s, %d CPUs</p>
                <table id="cells">
                <thead><tr><th>cell</th><th>jdk</th><th>vm</th><th>os</th><th>cpus</th><th>parallelism</th><th>maxPoolSize</th><th>minRunnable</th><th>workload</th><th>status</th><th>attestation</th><th>median wall time per variant</th></tr></thead>
                <tbody>
                %s</tbody>
                </table>
                <p>Data: <a href="data/runs/%s/cells.json">cells.json</a>, <a href="data/runs/%s/run.json">run.json</a></p>
                </body>
                </html>
                """
                .formatted(
                        escapeHtml4(manifest.runId()),
                        escapeHtml4(manifest.runId()),
                        cells.size(),
                        ok,
                        escapeHtml4(manifest.startedAt()),
                        escapeHtml4(manifest.matrix().profile().orElse("none")),
                        escapeHtml4(manifest.git().commit()),
                        escapeHtml4(manifest.git().branch()),
                        escapeHtml4(manifest.host().cpuModel()),
                        manifest.host().cpus(),
                        rows,
                        escapeHtml4(manifest.runId()),
                        escapeHtml4(manifest.runId()));
    }

    private static String td(String text) {
        return "<td>" + escapeHtml4(text) + "</td>";
    }

    private static java.util.Optional<Workloads.Headline> headline(CellRecord cell) {
        return Workloads.find(cell.coordinates().workload()).flatMap(Workloads.Definition::headline);
    }

    private static String median(Measurement m, java.util.Optional<Workloads.Headline> headline) {
        // The interval's real coverage is shown: with few repetitions it is below 95 %.
        String value = m.summary()
                .map(s -> String.format(
                        Locale.ROOT,
                        "%.1f ms (n=%d, %.0f%% CI %.1f–%.1f)",
                        s.median(),
                        s.n(),
                        s.ciLevel() * 100,
                        s.ci95().get(0),
                        s.ci95().get(1)))
                .orElse("no samples");
        String bound = m.lowerBoundMs()
                .map(lb -> String.format(Locale.ROOT, "; bound %.0f ms", lb))
                .orElse("");
        String ceiling =
                m.ceiling().map(c -> "; ceiling " + c.threads() + " threads").orElse("");
        String headlineText = headline.flatMap(
                        h -> m.medianOf(h.metric()).map(v -> String.format(Locale.ROOT, "; %.0f %s", v, h.unit())))
                .orElse("");
        return "<span class=\"variant\" data-variant=\"" + escapeHtml4(m.variant()) + "\">" + escapeHtml4(m.variant())
                + ": " + escapeHtml4(value + headlineText + bound + ceiling) + "</span>";
    }
}
