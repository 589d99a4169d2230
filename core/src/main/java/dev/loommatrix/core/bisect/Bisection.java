package dev.loommatrix.core.bisect;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A bisection of the commits between a good and a bad build (issue #53), independent of what builds and measures
 * them. Commits are numbered 0 to n−1 after the good one, the bad one last. The first step measures the bad commit
 * against the good one: without a regression there there is nothing to bisect. Then each step measures the commit in
 * the middle of a range whose ends are measured, and keeps the half its verdict points to; a commit showing part of
 * the change splits its range in two, each bisected on its own; a commit that does not build is skipped (its
 * neighbour nearest the middle is measured instead); a step that cannot tell ends its range unsplit.
 *
 * <p>Every step is an A/B of the good build against the commit, never of two commits: one reference for every
 * measurement, so the ends' changes and the commit's are on one scale.
 */
public final class Bisection {

    /** Measures commits against the good build. */
    public interface Probe {
        /**
         * Builds and measures commit {@code question.commit()} against the good build.
         *
         * @param question the commit, the threshold its A/B is run with, and the steps still to come
         */
        Probed at(Question question) throws IOException, InterruptedException;
    }

    /**
     * One step's question: how much worse than the good build is {@code commit}?
     *
     * @param threshold the change the step's A/B is to tell apart: beyond it, or clearly within it
     * @param stepsLeft the most steps this one and those after it take, were none to split or skip
     */
    public record Question(int commit, double threshold, int stepsLeft) {}

    /** What a step found: the commit's change, or why it has none (it did not build, or the A/B said nothing). */
    public sealed interface Probed {
        /** The commit's change against the good build; {@code evidence} names the step's A/B report. */
        record Measured(Change change, String evidence) implements Probed {}

        /** The commit does not build: skipped, as {@code git bisect skip}. */
        record NotBuilt(String why) implements Probed {}

        /** Built, but its A/B gave no change for the series (a failed cell, no comparison). */
        record NotMeasured(String why, String evidence) implements Probed {}
    }

    /** One step, in the order run. */
    public record Step(
            int commit, Optional<Change> change, StepVerdict verdict, String why, Optional<String> evidence) {}

    /**
     * A commit where the series steps: it is worse than the commit before it by {@code from} → {@code to} (each
     * against the good build).
     */
    public record Found(int commit, Change from, Change to) {}

    /**
     * A range the bisection could not split: the first bad commit of a step is one of {@code first}..{@code last}.
     */
    public record Unsplit(int first, int last, String why) {}

    /** How a bisection ended. */
    public enum Ending {
        /** The bad commit is not worse than the good one: nothing to bisect. */
        NO_REGRESSION,
        /** The bad commit's change against the good one was not clear enough to bisect. */
        NOT_CONFIRMED,
        /** Every step was found, each at one commit. */
        FOUND,
        /** At least one step was narrowed only to a range (with the steps found, if any). */
        UNSPLIT
    }

    /** The bisection's answer, with every step. */
    public record Result(
            Ending ending, Optional<Change> change, List<Found> found, List<Unsplit> unsplit, List<Step> steps) {
        public Result {
            found = List.copyOf(found);
            unsplit = List.copyOf(unsplit);
            steps = List.copyOf(steps);
        }
    }

    /** ⌈log₂ n⌉: the steps a range of n commits takes after the bad commit's. */
    public static int halvings(int commits) {
        return commits <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(commits - 1);
    }

    /** The most steps a bisection of n commits takes with one change and no commit skipped: ⌈log₂ n⌉ + 1. */
    public static int steps(int commits) {
        return halvings(commits) + 1;
    }

    private final int commits;
    private final double threshold;
    private final Probe probe;
    private final List<Step> steps = new ArrayList<>();
    private final List<Found> found = new ArrayList<>();
    private final List<Unsplit> unsplit = new ArrayList<>();
    private final Set<Integer> skipped = new HashSet<>();

    /**
     * @param commits the commits after the good one, the bad one last
     * @param threshold the smallest regression worth bisecting (0.03: 3 %)
     */
    private Bisection(int commits, double threshold, Probe probe) {
        this.commits = commits;
        this.threshold = threshold;
        this.probe = probe;
    }

    /** Bisects {@code commits} commits (the bad one last) for a regression of at least {@code threshold}. */
    public static Result run(int commits, double threshold, Probe probe) throws IOException, InterruptedException {
        if (commits < 1) {
            throw new IllegalArgumentException("no commit between good and bad");
        }
        return new Bisection(commits, threshold, probe).run();
    }

    private Result run() throws IOException, InterruptedException {
        int bad = commits - 1;
        Probed probed = probe.at(new Question(bad, threshold, steps(commits)));
        switch (probed) {
            case Probed.NotBuilt notBuilt -> {
                steps.add(new Step(
                        bad,
                        Optional.empty(),
                        StepVerdict.UNKNOWN,
                        "the bad commit does not build: " + notBuilt.why(),
                        Optional.empty()));
                return ended(Ending.NOT_CONFIRMED, Optional.empty());
            }
            case Probed.NotMeasured notMeasured -> {
                steps.add(new Step(
                        bad,
                        Optional.empty(),
                        StepVerdict.UNKNOWN,
                        notMeasured.why(),
                        Optional.of(notMeasured.evidence())));
                return ended(Ending.NOT_CONFIRMED, Optional.empty());
            }
            case Probed.Measured measured -> {
                Change change = measured.change();
                Optional<String> evidence = Optional.of(measured.evidence());
                if (change.regression(threshold)) {
                    steps.add(new Step(
                            bad,
                            Optional.of(change),
                            StepVerdict.SAME_AS_BAD,
                            "a regression of " + change.words() + " against good",
                            evidence));
                    split(-1, bad, Change.NONE, change);
                    return ended(unsplit.isEmpty() ? Ending.FOUND : Ending.UNSPLIT, Optional.of(change));
                }
                boolean none = change.none(threshold);
                steps.add(new Step(
                        bad,
                        Optional.of(change),
                        none ? StepVerdict.SAME_AS_GOOD : StepVerdict.UNKNOWN,
                        (none
                                        ? "no regression: "
                                        : "no regression of at least " + Change.percent(1 + threshold) + " shown: ")
                                + change.words() + " against good",
                        evidence));
                return ended(none ? Ending.NO_REGRESSION : Ending.NOT_CONFIRMED, Optional.of(change));
            }
        }
    }

    private Result ended(Ending ending, Optional<Change> change) {
        return new Result(ending, change, found, unsplit, steps);
    }

    /**
     * Bisects the commits after {@code good} up to {@code bad}, both measured ({@code good} is −1 for the good build):
     * the first commit whose change is {@code badChange} rather than {@code goodChange}.
     */
    private void split(int good, int bad, Change goodChange, Change badChange)
            throws IOException, InterruptedException {
        while (true) {
            Optional<Integer> middle = middle(good, bad);
            if (middle.isEmpty()) {
                if (skippedBetween(good, bad) == 0) {
                    found.add(new Found(bad, goodChange, badChange));
                } else {
                    unsplit.add(new Unsplit(
                            good + 1,
                            bad,
                            "every commit before the last does not build: the change is "
                                    + "in one of them or the last"));
                }
                return;
            }
            int m = middle.get();
            Probed probed =
                    probe.at(new Question(m, StepVerdict.threshold(goodChange, badChange), halvings(bad - good)));
            switch (probed) {
                case Probed.NotBuilt notBuilt -> {
                    skipped.add(m);
                    steps.add(new Step(
                            m,
                            Optional.empty(),
                            StepVerdict.UNKNOWN,
                            "skipped: it does not build (" + notBuilt.why() + ")",
                            Optional.empty()));
                }
                case Probed.NotMeasured notMeasured -> {
                    steps.add(new Step(
                            m,
                            Optional.empty(),
                            StepVerdict.UNKNOWN,
                            notMeasured.why(),
                            Optional.of(notMeasured.evidence())));
                    unsplit.add(new Unsplit(
                            good + 1, bad, "the step in its middle measured nothing: " + notMeasured.why()));
                    return;
                }
                case Probed.Measured measured -> {
                    Change change = measured.change();
                    StepVerdict verdict = StepVerdict.of(change, goodChange, badChange);
                    steps.add(new Step(
                            m,
                            Optional.of(change),
                            verdict,
                            change.words() + " against good",
                            Optional.of(measured.evidence())));
                    switch (verdict) {
                        case SAME_AS_BAD -> {
                            bad = m;
                            badChange = change;
                        }
                        case SAME_AS_GOOD -> {
                            good = m;
                            goodChange = change;
                        }
                        case PART -> {
                            split(good, m, goodChange, change);
                            good = m;
                            goodChange = change;
                        }
                        case UNKNOWN -> {
                            unsplit.add(new Unsplit(
                                    good + 1,
                                    bad,
                                    "the step could not tell its middle commit ("
                                            + change.words() + ") from either end (" + goodChange.words() + " and "
                                            + badChange.words() + ") within its budget"));
                            return;
                        }
                    }
                }
            }
        }
    }

    /**
     * The commit to measure between {@code good} and {@code bad}: the middle one, else the buildable one nearest it
     * (the later first); empty when none is left between them.
     */
    private Optional<Integer> middle(int good, int bad) {
        int mid = good + (bad - good) / 2;
        for (int d = 0; d < bad - good; d++) {
            for (int c : new int[] {mid + d, mid - d}) {
                if (c > good && c < bad && !skipped.contains(c)) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }

    private long skippedBetween(int good, int bad) {
        return skipped.stream().filter(c -> c > good && c < bad).count();
    }
}
