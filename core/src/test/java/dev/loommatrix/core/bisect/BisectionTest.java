package dev.loommatrix.core.bisect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The bisection over histories whose truth is known: each commit's change against the good build, measured as an
 * interval of ±1 % around it (a 10-minute A/B's precision for a program), or wider where a test says so.
 */
class BisectionTest {

    /** A history: commit i's true change (1.06: 6 % slower), the commits that do not build, the interval's half-width. */
    private record History(double[] truth, Set<Integer> broken, Map<Integer, Double> halfWidths)
            implements Bisection.Probe {
        static final List<Bisection.Question> ASKED = new ArrayList<>();

        @Override
        public Bisection.Probed at(Bisection.Question q) {
            ASKED.add(q);
            if (broken.contains(q.commit())) {
                return new Bisection.Probed.NotBuilt("exit 1");
            }
            double r = truth[q.commit()];
            double h = halfWidths.getOrDefault(q.commit(), 0.01);
            return new Bisection.Probed.Measured(new Change(r, r - h, r + h), "steps/" + q.commit());
        }
    }

    /** n commits after good: 1.0 before {@code at}, {@code to} from it on, a second step where given. */
    private static double[] steps(int n, int at, double to, int at2, double to2) {
        double[] t = new double[n];
        for (int i = 0; i < n; i++) {
            t[i] = i >= at2 ? to2 : i >= at ? to : 1.0;
        }
        return t;
    }

    private static Bisection.Result bisect(double[] truth, Set<Integer> broken, Map<Integer, Double> widths)
            throws Exception {
        History.ASKED.clear();
        return Bisection.run(truth.length, 0.03, new History(truth, broken, widths));
    }

    @Test
    void oneSlowingCommitAmongSixteenIsNamedInAtMostFiveStepsWithItsChange() throws Exception {
        for (int slowing = 0; slowing < 16; slowing++) {
            Bisection.Result r = bisect(steps(16, slowing, 1.06, 99, 0), Set.of(), Map.of());
            assertThat(r.ending()).as("slowing commit " + slowing).isEqualTo(Bisection.Ending.FOUND);
            assertThat(r.found()).extracting(Bisection.Found::commit).containsExactly(slowing);
            Change effect = r.found().getFirst().to();
            assertThat(effect.low()).isLessThan(1.06);
            assertThat(effect.high()).isGreaterThan(1.06);
            assertThat(r.steps()).hasSizeLessThanOrEqualTo(Bisection.steps(16)).hasSizeLessThanOrEqualTo(5);
        }
        // the first step measures the bad commit at the threshold asked; then each at the middle of its range: 3 %
        assertThat(History.ASKED.getFirst().threshold()).isEqualTo(0.03);
        assertThat(History.ASKED.get(1).threshold())
                .isCloseTo(Math.sqrt(1.06) - 1, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void overARangeWithNoChangeItSaysSoAfterOneStep() throws Exception {
        Bisection.Result r = bisect(steps(16, 99, 0, 99, 0), Set.of(), Map.of());
        assertThat(r.ending()).isEqualTo(Bisection.Ending.NO_REGRESSION);
        assertThat(r.steps()).singleElement().satisfies(s -> {
            assertThat(s.verdict()).isEqualTo(StepVerdict.SAME_AS_GOOD);
            assertThat(s.why()).isEqualTo("no regression: +0.0 % (-1.0 % to +1.0 %) against good");
        });
    }

    @Test
    void aCommitThatDoesNotBuildIsSkippedAndItsNeighbourMeasured() throws Exception {
        // 16 commits, the first probe would be commit 7: it does not build, 8 is measured instead
        Bisection.Result r = bisect(steps(16, 11, 1.06, 99, 0), Set.of(7), Map.of());
        assertThat(r.ending()).isEqualTo(Bisection.Ending.FOUND);
        assertThat(r.found()).extracting(Bisection.Found::commit).containsExactly(11);
        assertThat(r.steps().get(1).why()).isEqualTo("skipped: it does not build (exit 1)");
        assertThat(r.steps().get(2).commit()).isEqualTo(8);
    }

    @Test
    void whenTheFirstBadCommitDoesNotBuildTheRangeIsSaidUnsplit() throws Exception {
        // the slowdown is in 5, which does not build: 4 is good, 6 is bad, and 5 or 6 is the first bad
        Bisection.Result r = bisect(steps(16, 5, 1.06, 99, 0), Set.of(5), Map.of());
        assertThat(r.ending()).isEqualTo(Bisection.Ending.UNSPLIT);
        assertThat(r.unsplit()).singleElement().satisfies(u -> {
            assertThat(u.first()).isEqualTo(5);
            assertThat(u.last()).isEqualTo(6);
        });
    }

    @Test
    void twoSmallerSlowdownsInOneRangeAreBothFound() throws Exception {
        // +3.5 % at 4, +7 % in all from 11: the middle commit (7) shows part of the change
        Bisection.Result r = bisect(steps(16, 4, 1.035, 11, 1.07), Set.of(), Map.of());
        assertThat(r.ending()).isEqualTo(Bisection.Ending.FOUND);
        assertThat(r.steps()).extracting(Bisection.Step::verdict).contains(StepVerdict.PART);
        assertThat(r.found()).extracting(Bisection.Found::commit).containsExactly(4, 11);
        assertThat(r.found().get(1).from().ratio()).isEqualTo(1.035);
    }

    @Test
    void aStepThatCannotTellLeavesItsRangeUnsplitAndSaysWhy() throws Exception {
        // commit 7's interval spans both ends: ±8 %
        Bisection.Result r = bisect(steps(16, 5, 1.06, 99, 0), Set.of(), Map.of(7, 0.08));
        assertThat(r.ending()).isEqualTo(Bisection.Ending.UNSPLIT);
        assertThat(r.unsplit()).singleElement().satisfies(u -> {
            assertThat(u.first()).isZero();
            assertThat(u.last()).isEqualTo(15);
            assertThat(u.why()).startsWith("the step could not tell its middle commit (+6.0 % (-2.0 % to +14.0 %))");
        });
    }

    @Test
    void aVerdictIsTheSameAsAnEndOnlyWhenItIsApartFromTheOtherByMoreThanAQuarterOfTheRange() {
        Change good = Change.NONE;
        Change bad = new Change(1.06, 1.05, 1.07);
        assertThat(StepVerdict.of(new Change(1.00, 0.99, 1.01), good, bad)).isEqualTo(StepVerdict.SAME_AS_GOOD);
        assertThat(StepVerdict.of(new Change(1.06, 1.05, 1.07), good, bad)).isEqualTo(StepVerdict.SAME_AS_BAD);
        assertThat(StepVerdict.of(new Change(1.03, 1.02, 1.04), good, bad)).isEqualTo(StepVerdict.PART);
        // above good by chance (its interval just clear of 1) but nearer good than a quarter of the way: good
        assertThat(StepVerdict.of(new Change(1.01, 1.002, 1.018), good, bad)).isEqualTo(StepVerdict.SAME_AS_GOOD);
        assertThat(StepVerdict.of(new Change(1.03, 0.99, 1.07), good, bad)).isEqualTo(StepVerdict.UNKNOWN);
    }

    @Test
    void theStepsOfARangeAreItsHalvingsAndOne() {
        assertThat(Bisection.steps(16)).isEqualTo(5);
        assertThat(Bisection.steps(17)).isEqualTo(6);
        assertThat(Bisection.steps(1)).isEqualTo(1);
        assertThat(Bisection.halvings(2)).isEqualTo(1);
    }
}
