package dev.loommatrix.runner.bisect;

import dev.loommatrix.core.bisect.Bisection;
import dev.loommatrix.core.bisect.Change;
import dev.loommatrix.core.bisect.StepVerdict;
import java.util.List;
import java.util.Optional;

/**
 * A bisection's answer as {@code bisect.json} holds it and {@code bisect.md} says it: how it ended, the commit (or
 * commits) where the series steps with the change and its interval, the ranges it could not split and why, and
 * every step with its A/B report as evidence. Commits are named by id and subject, never by their position.
 *
 * @param schemaVersion this file's format: 1
 * @param ending {@code found}, {@code no-regression}, {@code not-confirmed} or {@code unsplit}; with {@code images},
 *     {@code image} (the step is the image's), {@code not-image} (the image changes nothing measurable) or {@code
 *     image-unknown}
 * @param answer the ending in a sentence
 * @param change the bad commit against the good one; with {@code images}, the later image against the earlier
 * @param images where the step was measured as an image's: the two images, on the bad commit
 */
public record BisectReport(
        int schemaVersion,
        Git.Commit good,
        Git.Commit bad,
        int commits,
        Optional<String> series,
        String ending,
        String answer,
        Optional<Change> change,
        List<Found> found,
        List<Unsplit> unsplit,
        List<Step> steps,
        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_ABSENT)
                Optional<Images> images) {

    public BisectReport {
        images = images == null ? Optional.empty() : images;
    }

    /** The bad commit's build measured on the image before the step ({@code from}) and after it ({@code to}). */
    public record Images(String from, String to, String evidence) {}

    /** A commit where the series steps: {@code from} the commit before it, {@code to} it, each against good. */
    public record Found(Git.Commit commit, Change from, Change to, String words) {}

    /** A range whose first bad commit the bisection could not name: one of these. */
    public record Unsplit(List<Git.Commit> commits, String why) {}

    /** One step: the commit, its change against good (if measured), the verdict, why, and its A/B report. */
    public record Step(
            Git.Commit commit, Optional<Change> change, StepVerdict verdict, String why, Optional<String> evidence) {}

    static BisectReport of(
            Bisection.Result r, Git.Commit good, Git.Commit bad, List<Git.Commit> commits, Optional<Series> series) {
        List<Found> found = r.found().stream()
                .map(f -> new Found(commits.get(f.commit()), f.from(), f.to(), stepWords(f)))
                .toList();
        List<Unsplit> unsplit = r.unsplit().stream()
                .map(u -> new Unsplit(commits.subList(u.first(), u.last() + 1), u.why()))
                .toList();
        List<Step> steps = r.steps().stream()
                .map(s -> new Step(commits.get(s.commit()), s.change(), s.verdict(), s.why(), s.evidence()))
                .toList();
        return new BisectReport(
                1,
                good,
                bad,
                commits.size(),
                series.map(Series::words),
                ending(r.ending()),
                answer(r, found, unsplit, good, bad),
                r.change(),
                found,
                unsplit,
                steps,
                Optional.empty());
    }

    private static String ending(Bisection.Ending e) {
        return switch (e) {
            case FOUND -> "found";
            case NO_REGRESSION -> "no-regression";
            case NOT_CONFIRMED -> "not-confirmed";
            case UNSPLIT -> "unsplit";
        };
    }

    /**
     * The step's change: the commit's against good ("+6.1 % (+4.9 % to +7.3 %)") where the commit before it was like
     * good, else from that commit's to this one's ("+3.0 % (…) → +6.1 % (…)").
     */
    private static String stepWords(Bisection.Found f) {
        boolean fromGood = f.from().low() <= 1 && f.from().high() >= 1;
        return fromGood ? f.to().words() : f.from().words() + " → " + f.to().words();
    }

    private static String answer(
            Bisection.Result r, List<Found> found, List<Unsplit> unsplit, Git.Commit good, Git.Commit bad) {
        String range = "between good " + good.shortId() + " and bad " + bad.shortId();
        return switch (r.ending()) {
            case NO_REGRESSION ->
                "no regression " + range + ": " + r.change().map(Change::words).orElse("") + " against good";
            case NOT_CONFIRMED ->
                "nothing to bisect " + range + ": " + r.steps().getFirst().why();
            case FOUND, UNSPLIT -> {
                StringBuilder b = new StringBuilder();
                if (found.size() == 1 && unsplit.isEmpty()) {
                    Found f = found.getFirst();
                    b.append("the first bad commit is ")
                            .append(f.commit().shortId())
                            .append(" (")
                            .append(f.commit().subject())
                            .append("): ")
                            .append(f.words())
                            .append(" against good");
                } else {
                    b.append(found.size() + unsplit.size())
                            .append(" step")
                            .append(found.size() + unsplit.size() == 1 ? "" : "s")
                            .append(" ")
                            .append(range)
                            .append(":");
                    for (Found f : found) {
                        b.append(" ")
                                .append(f.commit().shortId())
                                .append(" (")
                                .append(f.commit().subject())
                                .append("): ")
                                .append(f.words())
                                .append(";");
                    }
                    for (Unsplit u : unsplit) {
                        b.append(" one of ")
                                .append(u.commits().size())
                                .append(" commits, ")
                                .append(u.commits().getFirst().shortId())
                                .append(" to ")
                                .append(u.commits().getLast().shortId())
                                .append(" (")
                                .append(u.why())
                                .append(");");
                    }
                    b.setLength(b.length() - 1);
                }
                yield b.toString();
            }
        };
    }

    /** The report as {@code bisect.md}: the answer first, then each step with its evidence. */
    public String markdown() {
        if (images.isPresent()) {
            return "# Image A/B on " + bad.shortId() + "\n\n" + capitalised(answer) + ".\n\n"
                    + "The bad commit's build, the same on both sides, measured in its cells on `"
                    + images.get().from()
                    + "` against `" + images.get().to() + "`, both at once (lockstep): [A/B]("
                    + images.get().evidence()
                    + ").\n";
        }
        StringBuilder b = new StringBuilder("# Bisection ")
                .append(good.shortId())
                .append("..")
                .append(bad.shortId())
                .append("\n\n")
                .append(capitalised(answer))
                .append(".\n\n");
        series.ifPresent(s -> b.append("Series followed: ").append(s).append(". "));
        b.append(commits).append(" commits after good, ").append(steps.size()).append(" steps.\n\n");
        b.append("| Step | Commit | Against good | Verdict | Evidence |\n|---|---|---|---|---|\n");
        int i = 1;
        for (Step s : steps) {
            b.append("| ")
                    .append(i++)
                    .append(" | `")
                    .append(s.commit().shortId())
                    .append("` ")
                    .append(s.commit().subject().replace("|", "\\|"))
                    .append(" | ")
                    .append(s.change().map(Change::words).orElse(s.why()))
                    .append(" | ")
                    .append(s.verdict().words())
                    .append(" | ")
                    .append(s.evidence().map(e -> "[A/B](" + e + ")").orElse(""))
                    .append(" |\n");
        }
        b.append("\nEach step is an A/B of the good build against the commit on this machine, both at once"
                + " (lockstep), with sequential looks until it can say which end of its range the commit is like.\n");
        return b.toString();
    }

    private static String capitalised(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }
}
