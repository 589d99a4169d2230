package dev.loommatrix.runner.backend.local;

import dev.loommatrix.core.matrix.UserWorkload;
import dev.loommatrix.core.plan.Cell;
import dev.loommatrix.runner.backend.Backend;
import dev.loommatrix.runner.backend.EngineAnswer;
import dev.loommatrix.runner.backend.Execution;
import dev.loommatrix.runner.backend.service.Oha;
import dev.loommatrix.runner.backend.service.ServiceCell;
import dev.loommatrix.runner.backend.service.ServicePlacement;
import dev.loommatrix.runner.records.CellOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A service cell (issue #28) on this host: the server and oha as processes pinned to disjoint CPUs where the host
 * has them; Linux only (the generator's side is bash).
 */
final class LocalServiceCell {

    private final HostTools tools;

    LocalServiceCell(HostTools tools) {
        this.tools = tools;
    }

    Execution run(Cell cell, Backend.Assignment assignment, JdkLocator.FoundJdk jdk) {
        Path rawDir = assignment.rawDir();
        List<String> order = assignment.variantOrder();
        String generator = "oha " + Oha.VERSION + " (host process)";
        Optional<Path> oha = Oha.binary();
        if (JdkLocator.isWindows() || oha.isEmpty()) {
            return new Execution(
                    new CellOutcome.Skipped(
                            oha.isEmpty()
                                    ? Oha.missing()
                                    : "service cells need bash beside the load generator; on Windows they do not "
                                            + "run yet"),
                    tools.backend(),
                    generator,
                    order,
                    Optional.empty());
        }
        ServicePlacement placement = ServicePlacement.of(cell, tools.hostCpus());
        EngineAnswer answer = new EngineAnswer(cell, rawDir, order);
        try {
            Files.createDirectories(rawDir);
            UserWorkload.Service service =
                    (UserWorkload.Service) cell.workload().user().orElseThrow().artifact();
            try (LocalServiceHost host = new LocalServiceHost(
                    rawDir,
                    tools.taskset().isPresent() ? placement : ServicePlacement.unpinned(tools.hostCpus()),
                    tools.taskset(),
                    oha.get(),
                    service.port(),
                    tools.processes()::startOwn)) {
                answer.variantsFailed(ServiceCell.run(
                        cell,
                        order,
                        host,
                        rawDir,
                        tools.userPaths(cell, jdk, rawDir),
                        LocalCpuLimits.jvmArgs(LocalCpuLimits.processors(cell))));
            }
        } catch (IOException e) {
            answer.crashed("could not run the service: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            answer.crashed("interrupted");
        }
        return answer.answer(
                tools.backend(),
                generator + " on " + placement.words() + "; " + HostTools.jdkWords(jdk),
                LocalCpuLimits.forService(cell, placement, tools.taskset().isPresent()),
                Optional.empty(),
                Optional.empty(),
                List::of);
    }
}
