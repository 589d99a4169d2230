package dev.loommatrix.seeds;

import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Seed 002's test program with the real Spring Boot: {@code GET /work} waits {@code loom.sleepMs} (300 ms),
 * then answers. On Tomcat (Spring MVC, the default) the wait blocks the request's thread — one of
 * {@code server.tomcat.threads.max} pool threads, or a virtual thread with
 * {@code spring.threads.virtual.enabled=true}; on WebFlux and Netty
 * ({@code spring.main.web-application-type=reactive}) it is a delayed answer that holds no thread, as the seed's
 * WebFlux version's {@code delayElement}. {@code GET /health} answers at once: the readiness check.
 */
@SpringBootApplication
public class SeedService {

    public static void main(String[] args) {
        SpringApplication.run(SeedService.class, args);
    }

    @RestController
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class Blocking {

        private final long sleepMs;

        Blocking(@Value("${loom.sleepMs:300}") long sleepMs) {
            this.sleepMs = sleepMs;
        }

        @GetMapping("/health")
        String health() {
            return "ok";
        }

        @GetMapping("/work")
        String work() throws InterruptedException {
            Thread.sleep(sleepMs);
            return "ok";
        }
    }

    @RestController
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
    static class Reactive {

        private final Duration sleep;

        Reactive(@Value("${loom.sleepMs:300}") long sleepMs) {
            this.sleep = Duration.ofMillis(sleepMs);
        }

        @GetMapping("/health")
        Mono<String> health() {
            return Mono.just("ok");
        }

        @GetMapping("/work")
        Mono<String> work() {
            return Mono.just("ok").delayElement(sleep);
        }
    }
}
