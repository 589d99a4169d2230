package dev.loommatrix.runner.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and the pages under docs/ hold together: every relative link names a file or directory that exists, every
 * {@code #anchor} names a heading of the page it points into (as GitHub makes the anchor), every docs page is reachable
 * from the README, and the README stays a front door — short, with no line too long to read. Each test lists every
 * problem it finds, not the first.
 */
class DocsLinksTest {

    /** The repository's root: the tests' working directory is runner/. */
    static final Path ROOT = Path.of("..");

    static final int README_MOST_LINES = 260;

    static final int README_WIDEST_LINE = 125;

    /** {@code [text](target)} and {@code ![alt](target)}, the text holding at most one level of brackets. */
    private static final Pattern LINK =
            Pattern.compile("!?\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");

    /** A code span, which may run over a line break within its paragraph. */
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1", Pattern.DOTALL);

    private static final Pattern FENCE = Pattern.compile("^\\s*(`{3,}|~{3,})");

    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");

    private static final Pattern EXPLICIT_ANCHOR =
            Pattern.compile("<a\\s+(?:[^>]*\\s)?(?:id|name)\\s*=\\s*[\"']([^\"']+)[\"']", Pattern.CASE_INSENSITIVE);

    private static final Pattern EXTERNAL = Pattern.compile("^(?:https?:|mailto:)", Pattern.CASE_INSENSITIVE);

    /** README.md, then every page under docs/, in name order. */
    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md"))
                    .sorted()
                    .forEach(pages::add);
        }
        return pages;
    }

    @Test
    void everyRelativeLinkAndAnchorResolves() throws IOException {
        List<String> problems = new ArrayList<>();
        Map<Path, Set<String>> anchorsOf = new HashMap<>();
        int checked = 0;
        for (Path page : pages()) {
            for (Link link : links(page)) {
                String target = link.target();
                checked++;
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? "" : target.substring(hash + 1);
                Path resolved =
                        file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                String where = ROOT.relativize(page) + ":" + link.line() + ": " + target;
                if (!Files.exists(resolved)) {
                    problems.add(where + ": no such file or directory");
                    continue;
                }
                if (anchor.isEmpty()) {
                    continue;
                }
                if (!resolved.getFileName().toString().endsWith(".md")) {
                    problems.add(where + ": an anchor into a file that is not a Markdown page");
                    continue;
                }
                Set<String> anchors = anchorsOf.computeIfAbsent(resolved, DocsLinksTest::anchorsUnchecked);
                if (!anchors.contains(anchor)) {
                    problems.add(where + ": no heading makes #" + anchor + " in " + ROOT.relativize(resolved));
                }
            }
        }
        assertThat(checked)
                .as("relative links found (the link pattern still matches)")
                .isGreaterThan(50);
        assertThat(problems).as("links and anchors that do not resolve").isEmpty();
    }

    @Test
    void everyDocsPageIsReachableFromTheReadme() throws IOException {
        Set<String> linked = new LinkedHashSet<>();
        for (Link link : links(ROOT.resolve("README.md"))) {
            String target = link.target();
            int hash = target.indexOf('#');
            linked.add(ROOT.resolve(hash < 0 ? target : target.substring(0, hash))
                    .normalize()
                    .toString());
        }
        List<String> unreachable = new ArrayList<>();
        for (Path page : pages()) {
            if (!page.getFileName().toString().equals("README.md")
                    && !linked.contains(page.normalize().toString())) {
                unreachable.add(ROOT.relativize(page).toString());
            }
        }
        assertThat(unreachable).as("docs pages the README does not link").isEmpty();
    }

    @Test
    void theReadmeIsShortAndItsLinesReadable() throws IOException {
        Path readme = ROOT.resolve("README.md");
        List<String> all = Files.readAllLines(readme, StandardCharsets.UTF_8);
        List<String> problems = new ArrayList<>();
        if (all.size() > README_MOST_LINES) {
            problems.add("README.md has " + all.size() + " lines, more than " + README_MOST_LINES
                    + ": move the detail into a page under docs/");
        }
        for (Line line : prose(readme)) {
            int width = line.text().codePointCount(0, line.text().length());
            if (width > README_WIDEST_LINE) {
                problems.add("README.md:" + line.number() + ": " + width + " characters, more than "
                        + README_WIDEST_LINE + " (outside code blocks)");
            }
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void anchorsAreMadeAsGitHubMakesThem() {
        assertThat(slug("The answer: `loom-matrix report`")).isEqualTo("the-answer-loom-matrix-report");
        assertThat(slug("3.2 An A/B run directory")).isEqualTo("32-an-ab-run-directory");
        assertThat(slug("matrix.yaml reference (schema 1)")).isEqualTo("matrixyaml-reference-schema-1");
        assertThat(slug("Statistics, and how they were checked")).isEqualTo("statistics-and-how-they-were-checked");
        assertThat(slug("From a regression to its commit: `bisect`"))
                .isEqualTo("from-a-regression-to-its-commit-bisect");
        assertThat(slug("See [the contracts](contracts.md) — here")).isEqualTo("see-the-contracts--here");
        assertThat(slug("snake_case and CAPS")).isEqualTo("snake_case-and-caps");
    }

    /** A line of a page outside its fenced code blocks, with its 1-based number. */
    record Line(int number, String text) {}

    /** A relative link's target, as written, and the 1-based line it starts on. */
    record Link(int line, String target) {}

    /**
     * The relative links of a page (not http, https or mailto), outside fenced code blocks and code spans, found
     * paragraph by paragraph so that a link whose text wraps onto the next line counts too.
     */
    static List<Link> links(Path page) throws IOException {
        List<Link> out = new ArrayList<>();
        List<Line> paragraph = new ArrayList<>();
        List<Line> lines = new ArrayList<>(prose(page));
        lines.add(new Line(Integer.MAX_VALUE, ""));
        for (Line line : lines) {
            boolean continues = !paragraph.isEmpty()
                    && line.number() == paragraph.get(paragraph.size() - 1).number() + 1
                    && !line.text().isBlank();
            if (!continues && !paragraph.isEmpty()) {
                linksOf(paragraph, out);
                paragraph.clear();
            }
            if (!line.text().isBlank()) {
                paragraph.add(line);
            }
        }
        return out;
    }

    /** The links of one paragraph: its lines joined, code spans blanked out (their length kept, for line numbers). */
    private static void linksOf(List<Line> paragraph, List<Link> out) {
        String text = String.join("\n", paragraph.stream().map(Line::text).toList());
        Matcher code = CODE_SPAN.matcher(text);
        StringBuilder blanked = new StringBuilder(text);
        while (code.find()) {
            for (int i = code.start(); i < code.end(); i++) {
                if (blanked.charAt(i) != '\n') {
                    blanked.setCharAt(i, ' ');
                }
            }
        }
        Matcher link = LINK.matcher(blanked);
        while (link.find()) {
            String target = link.group(1);
            if (EXTERNAL.matcher(target).find()) {
                continue;
            }
            int breaks = (int) text.substring(0, link.start())
                    .chars()
                    .filter(c -> c == '\n')
                    .count();
            out.add(new Link(paragraph.get(breaks).number(), target));
        }
    }

    /** The lines of a page that are not inside a fenced code block (the fences themselves excluded). */
    static List<Line> prose(Path page) throws IOException {
        List<String> all = Files.readAllLines(page, StandardCharsets.UTF_8);
        List<Line> out = new ArrayList<>();
        String open = null;
        for (int i = 0; i < all.size(); i++) {
            String text = all.get(i);
            Matcher fence = FENCE.matcher(text);
            if (open == null && fence.find()) {
                open = fence.group(1);
                continue;
            }
            if (open != null) {
                Matcher close = FENCE.matcher(text);
                if (close.find()
                        && close.group(1).charAt(0) == open.charAt(0)
                        && close.group(1).length() >= open.length()
                        && text.strip().length() == close.group(1).length()) {
                    open = null;
                }
                continue;
            }
            out.add(new Line(i + 1, text));
        }
        return out;
    }

    /** The anchors a page has: its headings' slugs outside code blocks (repeats numbered), and explicit ones. */
    static Set<String> anchors(Path page) throws IOException {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (Line line : prose(page)) {
            Matcher heading = HEADING.matcher(line.text());
            if (heading.matches()) {
                String slug = slug(heading.group(2));
                int repeats = seen.merge(slug, 1, Integer::sum) - 1;
                out.add(repeats == 0 ? slug : slug + "-" + repeats);
            }
            Matcher explicit = EXPLICIT_ANCHOR.matcher(line.text());
            while (explicit.find()) {
                out.add(explicit.group(1));
            }
        }
        return out;
    }

    private static Set<String> anchorsUnchecked(Path page) {
        try {
            return anchors(page);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A heading's anchor as GitHub makes it: the text as rendered (a link's text, no HTML tags), lower case, every
     * character but letters, digits, marks, '_', '-' and spaces dropped, each space a '-'.
     */
    static String slug(String heading) {
        String rendered =
                heading.replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replaceAll("<[^>]+>", "");
        return rendered.strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^\\p{L}\\p{M}\\p{Nd}_\\- ]", "")
                .replace(' ', '-');
    }
}
