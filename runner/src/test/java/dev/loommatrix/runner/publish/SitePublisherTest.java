package dev.loommatrix.runner.publish;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.jsoup.Jsoup;
import org.jsoup.nodes.Document;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The dashboard the runner carries, as publish installs it (its behaviour is tested in dashboard/). */
class SitePublisherTest {

    @Test
    void publishInstallsTheDashboardWithAStrictPolicyAndNoInlineScript(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        Path page = SitePublisher.publish(HistoryTest.run(tmp, "r1", "2026-11-20T10:00:00Z"), site);
        Document html = Jsoup.parse(Files.readString(page));
        String policy = html.select("meta[http-equiv=Content-Security-Policy]").attr("content");
        assertThat(policy)
                .contains("default-src 'none'")
                .contains("script-src 'self';")
                .doesNotContain("unsafe-eval");
        assertThat(html.select("script")).isNotEmpty().allSatisfy(s -> {
            assertThat(s.attr("src"))
                    .as("scripts load from files the policy allows")
                    .startsWith("./assets/");
            assertThat(s.data()).isBlank();
        });
        for (var asset : html.select("script[src], link[rel=stylesheet]")) {
            String ref = asset.hasAttr("src") ? asset.attr("src") : asset.attr("href");
            assertThat(site.resolve(ref))
                    .as("relative, so the site works under a sub-path")
                    .isRegularFile();
        }
        assertThat(site.resolve("data/index.json")).isRegularFile();
    }

    @Test
    void assetsOfAnEarlierDashboardAreRemovedAndDataIsKept(@TempDir Path tmp) throws Exception {
        Path site = tmp.resolve("site");
        SitePublisher.publish(HistoryTest.run(tmp, "r1", "2026-11-20T10:00:00Z"), site);
        Path stale = site.resolve("assets/index-OLD.js");
        Files.writeString(stale, "old");
        SitePublisher.publish(HistoryTest.run(tmp, "r2", "2026-11-21T10:00:00Z"), site, Optional.empty());
        assertThat(stale).doesNotExist();
        assertThat(HistoryTest.runIds(site)).containsExactly("r1", "r2");
    }
}
