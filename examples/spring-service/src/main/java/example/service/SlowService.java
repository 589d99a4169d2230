package example.service;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * A service whose one endpoint spends its time waiting on a downstream call (a sleep stands in for it), the
 * shape seed 002 measured: with Tomcat's pool of N threads it serves at most N / wait requests a second; with
 * virtual threads ({@code spring.threads.virtual.enabled=true}) as many as the users ask.
 */
@SpringBootApplication
@RestController
public class SlowService {

    private final long downstreamMs;

    public SlowService(@Value("${app.downstream-ms:300}") long downstreamMs) {
        this.downstreamMs = downstreamMs;
    }

    public static void main(String[] args) {
        SpringApplication.run(SlowService.class, args);
    }

    /** The readiness check: answers at once. */
    @GetMapping("/health")
    public String health() {
        return "ok";
    }

    /** The work: a blocking downstream call, then a small answer. */
    @GetMapping("/work")
    public String work() throws InterruptedException {
        Thread.sleep(downstreamMs);
        return "done on " + (Thread.currentThread().isVirtual() ? "a virtual thread" : "a platform thread");
    }
}
