package dev.loommatrix.runner.run;

import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.core.result.RunManifest;
import dev.loommatrix.core.result.RunStatus;
import dev.loommatrix.runner.host.HostFacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/** A new run's name and manifest, as every command that measures starts one (run, and each side of ab). */
public final class NewRun {

    private NewRun() {}

    /** A run id: the UTC time and a random suffix. */
    public static String id() {
        return DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
                        .withZone(ZoneOffset.UTC)
                        .format(Instant.now())
                + "-"
                + HexFormat.of().toHexDigits((short) ThreadLocalRandom.current().nextInt());
    }

    /** The manifest of a new run of these cells, started now. */
    public static RunManifest manifest(
            String runId,
            Path matrix,
            Optional<String> matrixId,
            Optional<String> profile,
            Optional<String> shard,
            List<Cell> cells)
            throws IOException, NoSuchAlgorithmException {
        return new RunManifest(
                1,
                runId,
                Instant.now().toString(),
                Optional.empty(),
                RunStatus.RUNNING,
                System.getenv()
                        .getOrDefault("LOOM_TRIGGER", System.getenv().getOrDefault("GITHUB_EVENT_NAME", "manual")),
                HostFacts.git(matrix.toAbsolutePath().getParent()),
                HostFacts.host(),
                new RunManifest.MatrixInfo(matrix.toString(), profile, sha256(matrix), shard, matrixId),
                cells.stream().map(Cell::id).toList());
    }

    /** A matrix file's digest, as its run's manifest keeps it (a resumed run checks it). */
    public static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }
}
