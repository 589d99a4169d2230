package dev.loommatrix.runner.ab;

import dev.loommatrix.core.compare.CompareReport;
import dev.loommatrix.runner.run.CellRecorder;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The looks after the first pass, taken: the cells of the comparisons still undecided get the pairs of the next look,
 * as {@link LookScheduler} decides them, while the budget lasts (the first pass is always measured: without it
 * nothing can be decided). A cell whose first pass went past a look (its test could say nothing before) waits for the
 * look beyond it. What they left: the latest look's comparisons, the look taken last (from 0), whether it was the
 * last, why measuring ended, and the comparisons measured no more ("cell series" → why).
 */
final class Looks {

    /** Every comparison compared at a look's level. */
    interface Compare {
        CompareReport at(double level) throws IOException;
    }

    CompareReport latest;
    int look;
    boolean last;
    String ended;
    final Map<String, String> stopped = new TreeMap<>();

    private final AbRun.Settings settings;
    private final PrintStream out;
    private final Blocks blocks;
    private final CellPairs pairs;
    private final Compare compare;

    private Looks(AbRun.Settings settings, PrintStream out, Blocks blocks, CellPairs pairs, Compare compare) {
        this.settings = settings;
        this.out = out;
        this.blocks = blocks;
        this.pairs = pairs;
        this.compare = compare;
    }

    /** The first look (the first pass's comparisons), then the looks the scheduler asks for. */
    static Looks take(
            AbRun.Settings settings,
            PrintStream out,
            Blocks blocks,
            LookScheduler scheduler,
            CellPairs pairs,
            Pace pace,
            Compare compare,
            Instant began,
            Clock clock)
            throws IOException, InterruptedException {
        Looks looks = new Looks(settings, out, blocks, pairs, compare);
        Optional<Long> budgetMs = settings.budget().map(Duration::toMillis);
        looks.last =
                scheduler.firstIsLast(Duration.between(began, clock.instant()).toMillis(), pace);
        looks.latest = compare.at(settings.plan().level(0, looks.last));
        looks.ended = scheduler.endedAtFirst(looks.last);
        while (!looks.last && looks.look + 1 < settings.plan().looks().size() && !blocks.stopping()) {
            OptionalLong left = budgetMs.isPresent()
                    ? OptionalLong.of(budgetMs.get()
                            - Duration.between(began, clock.instant()).toMillis())
                    : OptionalLong.empty();
            LookScheduler.Decision decision =
                    scheduler.after(looks.look, looks.latest.comparisons(), looks.stopped, pairs.pairs(), pace, left);
            if (!looks.take(decision)) {
                break;
            }
        }
        looks.ended = scheduler.ended(looks.ended, looks.look, looks.last, looks.latest.comparisons());
        return looks;
    }

    /** Acts on the scheduler's decision: false when measuring stops. */
    private boolean take(LookScheduler.Decision decision) throws IOException, InterruptedException {
        switch (decision) {
            case LookScheduler.Decision.Done done -> {
                ended = done.ended();
                return false;
            }
            case LookScheduler.Decision.Futile futile -> {
                stopped.putAll(futile.stopped());
                out.printf(
                        "look %d: none of the %d undecided comparisons could be decided within %d pairs; stopping%n",
                        look + 2, futile.undecided(), futile.most());
                ended = LookScheduler.FUTILE;
                return false;
            }
            case LookScheduler.Decision.OutOfBudget spent -> {
                stopped.putAll(spent.stopped());
                out.printf(
                        "budget: look %d (%d pairs) for %d undecided cells would take about %s, beyond the %s"
                                + " left of the budget, and not one more pair fits; stopping%n",
                        look + 2,
                        spent.next().pairs(),
                        spent.next().cells().size(),
                        CellRecorder.formatDuration(spent.next().ms()),
                        CellRecorder.formatDuration(Math.max(0, spent.leftMs())));
                ended = LookScheduler.BUDGET;
                return false;
            }
            case LookScheduler.Decision.Measure measure -> {
                stopped.putAll(measure.stopped());
                measureLook(measure);
                return true;
            }
        }
    }

    /** The next look: its cells' pairs, then every comparison compared at its level. */
    private void measureLook(LookScheduler.Decision.Measure measure) throws IOException, InterruptedException {
        NextLook next = measure.next();
        int planned = settings.plan().looks().size();
        look++;
        last = next.last();
        if (last && look + 1 < planned) {
            ended = LookScheduler.BUDGET; // the budget made a look before the plan's last the last one
        }
        if (next.cells().isEmpty()) {
            return; // every undecided cell is already past this look
        }
        out.printf(
                "look %d of %d%s: %d cells undecided, up to %d pairs each%s%s — ETA %s%n",
                look + 1,
                planned,
                last && look + 1 < planned ? " (the budget's last: all α left)" : "",
                next.cells().size(),
                next.pairs(),
                next.onePairMore().isEmpty()
                        ? ""
                        : " (" + next.onePairMore().size() + " of them " + (next.pairs() + 1) + ": the budget's rest)",
                stopped.isEmpty()
                        ? ""
                        : "; " + stopped.size() + " comparisons measured no more (could not be decided within "
                                + measure.most() + " pairs)",
                CellRecorder.formatDuration(next.ms()));
        for (int i : next.cells()) {
            if (blocks.stopping()) {
                break;
            }
            if (next.pairsOf(i) > pairs.pairsOf(i)) {
                pairs.measure(
                        i,
                        next.pairsOf(i) - pairs.pairsOf(i),
                        measure.variants().get(i));
            }
        }
        latest = compare.at(settings.plan().level(look, last));
    }
}
