package dev.loommatrix.core.matrix;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.ScalarNode;

/**
 * The grammars of matrix.yaml's values: durations, sizes, CPU lists, scheduler settings. Each reports
 * a value that does not fit — too large for its field included — at its position, with a hint.
 */
final class Values {

    /** A Linux CPU list ("0", "0-1", "0,2-3") or "all" (no cpuset: the quota alone limits). */
    static final Pattern CPU_LIST = Pattern.compile("all|[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*");

    private static final Pattern SIZE = Pattern.compile("([0-9]+)([kmg]?)", Pattern.CASE_INSENSITIVE);
    /** The largest timeout a cell may have: a week (GitHub's self-hosted jobs end after 5 days). */
    static final Duration MAX_TIMEOUT = Duration.ofDays(7);
    /** The largest memory limit: 1 TiB — beyond any runner, and a typo when written. */
    static final long MAX_MEMORY = 1L << 40;
    /** The largest fixed pool: more platform threads than any OS limit lets one JVM start. */
    static final long MAX_POOL = 1_000_000;
    /** CPU numbers beyond this are not CPUs of any machine (Linux's NR_CPUS is at most 8192). */
    static final int MAX_CPU = 8191;

    private Values() {}

    static Optional<String> schedulerValue(YamlReader in, Node item, String where) {
        if (item instanceof ScalarNode s && s.getValue().equals("auto")) {
            return Optional.of("auto");
        }
        if (item instanceof ScalarNode s && s.getTag().equals(org.snakeyaml.engine.v2.nodes.Tag.INT)) {
            return in.integer(item, where, 1, 32_767).map(String::valueOf);
        }
        in.error(
                item,
                where + " values must be 'auto' or a whole number from 1 to 32767, found " + YamlReader.describe(item),
                "'auto' keeps the JDK's default");
        return Optional.empty();
    }

    /** A cpuset value: CPU numbers and ranges as Linux writes them, or "all". */
    static Optional<String> cpuList(YamlReader in, Node node, String where) {
        return in.string(node, where).filter(text -> {
            if (!CPU_LIST.matcher(text).matches()) {
                in.error(
                        node,
                        where + " '" + text + "' is not a CPU list",
                        "write CPUs as Linux does, e.g. \"0\", \"0-1\", \"0,2-3\", or all for no cpuset");
                return false;
            }
            if (text.equals("all")) {
                return true;
            }
            for (String part : text.split(",")) {
                String[] ends = part.split("-");
                if (ends[0].length() > 4
                        || ends[ends.length - 1].length() > 4
                        || Integer.parseInt(ends[ends.length - 1]) > MAX_CPU
                        || Integer.parseInt(ends[0]) > MAX_CPU) {
                    in.error(
                            node,
                            where + " '" + text + "' names CPU " + ends[ends.length - 1] + ", beyond any machine's",
                            "CPU numbers run from 0 to " + MAX_CPU + "; a cell on a CPU the host lacks fails");
                    return false;
                }
                if (ends.length == 2 && Integer.parseInt(ends[0]) > Integer.parseInt(ends[1])) {
                    in.error(
                            node,
                            where + " '" + text + "' has a range that runs backwards (" + part + ")",
                            "write the lower CPU first: " + ends[1] + "-" + ends[0]);
                    return false;
                }
            }
            return true;
        });
    }

    static Optional<Duration> duration(YamlReader in, Node node) {
        return in.scalarText(node, "timeout").flatMap(text -> {
            java.util.OptionalLong millis = Durations.millis(text);
            if (millis.isEmpty()) {
                in.error(
                        node,
                        "timeout '" + text + "' is not a duration",
                        "write a positive number with a unit: " + Durations.EXAMPLES);
                return Optional.empty();
            }
            if (millis.getAsLong() > MAX_TIMEOUT.toMillis()) {
                in.error(
                        node,
                        "timeout '" + text + "' is too long: a cell's timeout is at most 7 days (168h)",
                        "a timeout ends a cell that hangs; 10m is the default, GitHub-hosted jobs end after 6h");
                return Optional.empty();
            }
            return Optional.of(Duration.ofMillis(millis.getAsLong()));
        });
    }

    static Optional<Long> size(YamlReader in, Node node) {
        return in.scalarText(node, "memory").flatMap(text -> {
            Matcher m = SIZE.matcher(text.trim());
            if (!m.matches()) {
                in.error(
                        node,
                        "memory '" + text + "' is not a size",
                        "write bytes or a number with k, m or g: 512m, 2g");
                return Optional.empty();
            }
            java.math.BigInteger exact = new java.math.BigInteger(m.group(1))
                    .shiftLeft(
                            switch (m.group(2).toLowerCase(Locale.ROOT)) {
                                case "k" -> 10;
                                case "m" -> 20;
                                case "g" -> 30;
                                default -> 0;
                            });
            if (exact.compareTo(java.math.BigInteger.valueOf(MAX_MEMORY)) > 0) {
                in.error(
                        node,
                        "memory " + text + " is too large: a cell's memory limit is at most 1024g (1 TiB)",
                        "the limit is per cell (one container or JVM); 2g is the default");
                return Optional.empty();
            }
            long bytes = exact.longValueExact();
            if (bytes < (64L << 20)) {
                in.error(
                        node,
                        "memory " + text + " is below the 64m a JVM cell needs",
                        "use at least 64m; 2g is the default");
                return Optional.empty();
            }
            return Optional.of(bytes);
        });
    }

    /** A variant name the workload has, with a pool size no OS could start. */
    static Optional<String> variant(YamlReader in, Workloads.Definition def, Node node, String where) {
        return in.scalarText(node, where).filter(name -> {
            if (!def.accepts(name)) {
                in.error(
                        node,
                        "workload " + def.id() + " has no variant '" + name + "'"
                                + YamlReader.didYouMeanSuffix(name, def.variants()),
                        "variants of " + def.id() + ": " + def.describeVariants()
                                + (name.startsWith("pool:") && def.pools()
                                        ? "; a pool size is a whole number ≥ 1 or 'cpus'"
                                        : "")
                                + (name.startsWith("tomcat:") && def.service()
                                        ? "; Tomcat's thread count is a whole number from 1 to 999999"
                                        : ""));
                return false;
            }
            Matcher pool = Workloads.POOL.matcher(name);
            if (pool.matches()
                    && !pool.group(1).equals("cpus")
                    && (pool.group(1).length() > 7 || Long.parseLong(pool.group(1)) > MAX_POOL)) {
                in.error(
                        node,
                        "variant '" + name + "' asks for more than " + MAX_POOL + " platform threads",
                        "no OS lets one JVM start that many (each needs a native stack); the seeds' largest pool is 1000");
                return false;
            }
            return true;
        });
    }

    private static final Pattern PERCENT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*%");

    /** {@code 0.1%}, or a fraction below 1 ({@code 0.001}), at least {@code min}: every share a load states. */
    static Optional<Double> share(YamlReader in, Node node, String where, double min, String hint) {
        return in.scalarText(node, where).flatMap(text -> {
            double value = shareOf(text);
            if (!(value >= min && value < 1)) {
                in.error(
                        node,
                        where + " '" + text + "' is not a share of "
                                + (min > 0 ? "at least " + ServiceLoad.Objective.share(min) : "0 or more")
                                + " and below 100 %",
                        hint);
                return Optional.empty();
            }
            return Optional.of(value);
        });
    }

    /** {@code 5%} or a fraction ({@code 0.05}) as a fraction; NaN when it is neither. */
    static double shareOf(String text) {
        Matcher m = PERCENT.matcher(text.trim());
        if (m.matches()) {
            return Double.parseDouble(m.group(1)) / 100;
        }
        try {
            return Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
