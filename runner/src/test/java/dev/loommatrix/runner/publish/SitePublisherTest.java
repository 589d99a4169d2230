package dev.loommatrix.runner.publish;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.runner.result.CellRecord;
import dev.loommatrix.runner.result.Json;
import dev.loommatrix.runner.result.RunManifest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;

class SitePublisherTest {

    static final String HOSTILE = "<img src=x onerror=alert(1)>\"'&";

    @Test
    void stringsFromTheDataStayText() throws Exception {
        CellRecord cell = Json.MAPPER.readValue(
                Files.readString(Path.of("src/test/resources/golden/cell-sleep-bound.json")), CellRecord.class);
        RunManifest manifest = new RunManifest(
                1,
                "r1",
                "2026-11-21T00:00:00Z",
                Optional.empty(),
                "finished",
                "pull_request",
                new RunManifest.Git("abc", HOSTILE, false),
                new RunManifest.Host("Linux", "6", HOSTILE, 2, 1),
                new RunManifest.MatrixInfo("matrix.yaml", Optional.of(HOSTILE), "00", Optional.empty()),
                List.of(cell.cellId()));
        Document page = Jsoup.parse(SitePublisher.html(manifest, List.of(cell)));
        assertThat(page.select("img")).isEmpty();
        assertThat(page.select("#summary").text()).contains(HOSTILE);
        assertThat(page.select("tr[data-cell-id]")).hasSize(1);
        assertThat(page.select("meta[http-equiv=Content-Security-Policy]").attr("content"))
                .contains("default-src 'none'");
    }
}
