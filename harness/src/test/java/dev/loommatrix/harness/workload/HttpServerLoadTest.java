package dev.loommatrix.harness.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loommatrix.harness.Params;
import dev.loommatrix.harness.Variant;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HttpServerLoadTest {

    private final HttpServerLoad workload = new HttpServerLoad();

    private Params params(long users, long sleepMs) {
        return Params.of(
                workload.defaults(),
                Map.of(
                        "users",
                        String.valueOf(users),
                        "sleepMs",
                        String.valueOf(sleepMs),
                        "durationS",
                        "2",
                        "warmupS",
                        "1"));
    }

    @Test
    void theBoundIsLittlesLaw() {
        // Seed 002: 3000 users, 300 ms; Tomcat with 200 threads topped out at 624.5 req/s (bound 666.7)
        assertThat(HttpServerLoad.throughputBound(new Variant.Pool(200, false), 3000, 300))
                .isCloseTo(666.67, org.assertj.core.data.Offset.offset(0.01));
        assertThat(HttpServerLoad.throughputBound(new Variant.Virtual(), 3000, 300))
                .isEqualTo(10_000.0);
    }

    @Test
    void aPoolIsCappedByItsThreadsAndVirtualThreadsByTheUsers() throws Exception {
        Outcome pool = workload.run(new Variant.Pool(4, false), params(40, 50));
        // 4 threads × 20 req/s each = 80 req/s at most
        assertThat((double) pool.metrics().get("throughputPerSecond")).isBetween(40.0, 80.0 * 1.05);
        assertThat(pool.metrics())
                .containsEntry("requestsHandledOnVirtualThreads", 0L)
                .containsEntry("errors", 0L);
        Outcome virtual = workload.run(new Variant.Virtual(), params(40, 50));
        // 40 users × 20 req/s = 800 req/s at most; far above the pool's 80
        assertThat((double) virtual.metrics().get("throughputPerSecond")).isBetween(300.0, 800.0 * 1.05);
        assertThat((long) virtual.metrics().get("requestsHandledOnVirtualThreads"))
                .isPositive();
        assertThat((double) virtual.metrics().get("latencyP50Ms")).isGreaterThanOrEqualTo(50.0);
    }

    @Test
    void responsesAreParsedByContentLengthAndAClosedConnectionIsAnEof() throws Exception {
        String two =
                "HTTP/1.1 200 OK\r\nDate: x\r\nContent-length: 2\r\n\r\nokHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        var in = new ByteArrayInputStream(two.getBytes(StandardCharsets.US_ASCII));
        HttpServerLoad.readResponse(in);
        HttpServerLoad.readResponse(in);
        assertThatThrownBy(() -> HttpServerLoad.readResponse(in)).isInstanceOf(EOFException.class);
    }
}
