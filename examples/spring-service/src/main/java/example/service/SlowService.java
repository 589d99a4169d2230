package example.service;

import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * A service whose one endpoint spends its time waiting on a downstream call (a sleep stands in for it), the
 * shape seed 002 measured: with Tomcat's pool of N threads it serves at most N / wait requests a second; with
 * virtual threads ({@code spring.threads.virtual.enabled=true}) as many as the users ask. Started with
 * {@code spring.main.web-application-type=reactive} it runs on WebFlux and Netty instead, where the same wait
 * is a delayed answer that holds no thread.
 */
@SpringBootApplication
public class SlowService {

    public static void main(String[] args) {
        SpringApplication.run(SlowService.class, args);
    }

    /** Tomcat (Spring MVC): the wait blocks the request's thread, a pool thread or a virtual one. */
    @RestController
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class Blocking {

        private final long downstreamMs;

        Blocking(@Value("${app.downstream-ms:300}") long downstreamMs) {
            this.downstreamMs = downstreamMs;
        }

        /** The readiness check: answers at once. */
        @GetMapping("/health")
        String health() {
            return "ok";
        }

        /** The work: a blocking downstream call, then a small answer. */
        @GetMapping("/work")
        String work() throws InterruptedException {
            Thread.sleep(downstreamMs);
            return "done on " + (Thread.currentThread().isVirtual() ? "a virtual thread" : "a platform thread");
        }
    }

    /** WebFlux (Netty): the wait is a timer, no thread waits. */
    @RestController
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class Reactive {

        private final Duration downstream;

        Reactive(@Value("${app.downstream-ms:300}") long downstreamMs) {
            this.downstream = Duration.ofMillis(downstreamMs);
        }

        @GetMapping("/health")
        Mono<String> health() {
            return Mono.just("ok");
        }

        @GetMapping("/work")
        Mono<String> work() {
            return Mono.delay(downstream).map(tick -> "done on Netty's event loop");
        }
    }
}
