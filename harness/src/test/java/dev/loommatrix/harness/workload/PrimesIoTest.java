package dev.loommatrix.harness.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrimesIoTest {

    private final PrimesIo workload = new PrimesIo();

    private Params params(long tasks, long sleepMs) {
        return Params.of(
                workload.defaults(), Map.of("tasks", String.valueOf(tasks), "sleepMs", String.valueOf(sleepMs)));
    }

    @Test
    void sumsPrimesCorrectly() {
        assertThat(PrimesIo.sumOfPrimes(10)).isEqualTo(2 + 3 + 5 + 7);
        assertThat(PrimesIo.sumOfPrimes(1000)).isEqualTo(76_127); // OEIS A046731: sum of primes < 10^3
        assertThat(PrimesIo.isPrime(1)).isFalse();
        assertThat(PrimesIo.isPrime(97)).isTrue();
        assertThat(PrimesIo.isPrime(91)).isFalse();
    }

    @Test
    void limitsFollowTheSeedsRangeAndAreReproducible() {
        int[] a = PrimesIo.limits(params(500, 10));
        assertThat(a).hasSize(500);
        assertThat(java.util.Arrays.stream(a).boxed().toList())
                .allSatisfy(l -> assertThat(l).isBetween(1000, 5999));
        assertThat(PrimesIo.limits(params(500, 10))).isEqualTo(a);
    }

    @Test
    void everyVariantComputesTheSameChecksum() throws Exception {
        long expected = 0;
        for (int limit : PrimesIo.limits(params(40, 1))) {
            expected += PrimesIo.sumOfPrimes(limit);
        }
        for (Variant v : new Variant[] {new Variant.Virtual(), new Variant.Platform(), new Variant.Pool(3, false)}) {
            Outcome outcome = workload.run(v, params(40, 1));
            assertThat(outcome.metrics().get("primeSumChecksum")).as(v.name()).isEqualTo(expected);
        }
    }

    @Test
    void lowerBoundIsTheLargerOfCpuAndWaves() throws Exception {
        Params p = params(100, 20);
        workload.run(new Variant.Pool(10, false), p); // calibrates
        double c = workload.calibrate(PrimesIo.limits(p));
        int cpus = Runtime.getRuntime().availableProcessors();
        assertThat(workload.lowerBoundMs(new Variant.Pool(10, false), p).getAsDouble())
                .isEqualTo(Math.max(100 * c / cpus, 10 * (c + 20)));
        assertThat(workload.lowerBoundMs(new Variant.Virtual(), p).getAsDouble())
                .isEqualTo(Math.max(100 * c / cpus, c + 20));
    }
}
