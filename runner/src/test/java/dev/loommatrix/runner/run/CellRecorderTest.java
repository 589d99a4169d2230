package dev.loommatrix.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.core.matrix.Workloads;
import dev.loommatrix.core.result.Measurement;
import dev.loommatrix.core.result.Sample;
import dev.loommatrix.core.stats.MetricDescriptor;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The words a cell's console line puts on its figures. */
class CellRecorderTest {

    static Measurement footprint(double... rssPerThread) {
        List<Sample> samples = java.util.Arrays.stream(rssPerThread)
                .mapToObj(rss -> Sample.of(Map.of(
                        "wallMs",
                        30.0,
                        "heapBytesPerThread",
                        1100.0,
                        "rssBytes",
                        rss * 2000,
                        "rssBytesPerThread",
                        rss)))
                .toList();
        return new Measurement(
                "virtual",
                Map.of("threads", 2000L),
                MetricDescriptor.WALL_MS,
                samples,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                Optional.empty());
    }

    /**
     * Issue #49: resident memory that fell while the threads were started (2,000 virtual threads fit in heap pages
     * already resident) is no RSS footprint: the line gives the heap per thread and says why, and the cell is not
     * called failed or invalid for it; RSS that grew is the headline as before.
     */
    @Test
    void aFootprintWhoseResidentMemoryFellGivesItsHeapPerThreadAndWhy() {
        Workloads.Headline headline =
                Workloads.find("footprint").flatMap(w -> w.headline()).orElseThrow();
        assertThat(CellRecorder.headlineText(footprint(-191, 105, -52), headline, -52))
                .isEqualTo(", virtual 1100 B heap/thread (resident memory fell in 2 of 3 repetitions: no RSS"
                        + " footprint at this count)");
        assertThat(CellRecorder.headlineText(footprint(9_800, 10_100, 9_950), headline, 9_950))
                .isEqualTo(", virtual 9950 B RSS/thread");
    }
}
