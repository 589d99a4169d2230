package dev.loommatrix.harness.agent;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Collection;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Whether anything in this JVM read the system properties a variant sets (issue #49). A variant that switches the
 * code under test with a property the code never reads measures the same code as every other variant, and was
 * reported under its own name ("virtual 82 ms/op" — the platform figure). The runner names the variant's properties
 * in {@code -Dloom.watchedProperties=a,b}; this agent then puts a copy of the system properties in place that
 * notes each read of one of them ({@code System.getProperty}, {@code Integer.getInteger}, a map lookup). Code that
 * lists all the properties instead (a framework copying them into its configuration, as Spring does) may read any of
 * them from its copy: that is noted as "listed by" its first class outside the JDK, JMH and this agent, and counts as
 * possibly read. A read under one of JMH's generated benchmark classes is noted with it: a suite's benchmarks share a
 * JVM, and a property one of them reads switches none of the others. The agent's own thread at exit reads nothing
 * that counts.
 */
final class PropertyReads extends Properties {

    private static final long serialVersionUID = 1L;

    /** The runner's list of the variant's property names, comma-separated. */
    static final String WATCHED = "loom.watchedProperties";

    /** Classes whose listing of the properties is not the code under test reading them. */
    private static final String[] NOT_THE_CODE = {
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.openjdk.jmh.", "dev.loommatrix.harness.", "com.ibm."
    };

    /** JMH's generated benchmark classes: a read under one of them happened while that benchmark ran. */
    private static final String JMH_GENERATED = ".jmh_generated.";

    private final transient Set<String> watched;
    private final transient Set<String> read = ConcurrentHashMap.newKeySet();
    /** Per property, the JMH generated classes a read of it happened under (a suite's benchmarks in one JVM). */
    private final transient Map<String, Set<String>> readDuring = new ConcurrentHashMap<>();
    /** The properties read outside any benchmark's code (a static initializer, another thread, a program). */
    private final transient Set<String> readElsewhere = ConcurrentHashMap.newKeySet();

    private transient volatile String listedBy;

    private PropertyReads(Set<String> watched, Properties current) {
        this.watched = Set.copyOf(watched);
        super.putAll(current);
    }

    /** Puts the noting copy in place when the runner named properties to watch; the copy, for the record. */
    static Optional<PropertyReads> install() {
        String names = System.getProperty(WATCHED, "");
        Set<String> watched = new LinkedHashSet<>();
        for (String name : names.split(",")) {
            if (!name.isBlank()) {
                watched.add(name.strip());
            }
        }
        if (watched.isEmpty()) {
            return Optional.empty();
        }
        PropertyReads reads = new PropertyReads(watched, System.getProperties());
        System.setProperties(reads);
        return Optional.of(reads);
    }

    /** Each watched property: whether it was read, and who listed all properties if someone did. */
    Map<String, Object> record() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String name : watched) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("read", read.contains(name));
            if (readDuring.containsKey(name)) {
                one.put("readDuring", List.copyOf(readDuring.get(name)));
            }
            if (readElsewhere.contains(name)) {
                one.put("readElsewhere", true);
            }
            if (listedBy != null) {
                one.put("listedBy", listedBy);
            }
            out.put(name, one);
        }
        return out;
    }

    private void noteRead(Object key) {
        if (key instanceof String name && watched.contains(name) && !agentThread()) {
            read.add(name);
            // which of a suite's benchmarks was running: a property one benchmark reads switches no other
            Optional<String> benchmark = StackWalker.getInstance()
                    .walk(frames -> frames.map(StackWalker.StackFrame::getClassName)
                            .filter(c -> c.contains(JMH_GENERATED) && c.endsWith("_jmhTest"))
                            .findFirst());
            if (benchmark.isPresent()) {
                readDuring
                        .computeIfAbsent(name, k -> ConcurrentHashMap.newKeySet())
                        .add(benchmark.get());
            } else {
                readElsewhere.add(name);
            }
        }
    }

    private void noteListing() {
        if (listedBy != null || agentThread()) {
            return;
        }
        StackWalker.getInstance()
                .walk(frames -> frames.map(StackWalker.StackFrame::getClassName)
                        .filter(PropertyReads::theCode)
                        .findFirst())
                .ifPresent(cls -> listedBy = cls);
    }

    private static boolean theCode(String className) {
        for (String prefix : NOT_THE_CODE) {
            if (className.startsWith(prefix)) {
                return false;
            }
        }
        return true;
    }

    private static boolean agentThread() {
        return Thread.currentThread().getName().equals(Agent.THREAD_NAME);
    }

    // reads of one property

    @Override
    public String getProperty(String key) {
        noteRead(key);
        return super.getProperty(key);
    }

    @Override
    public String getProperty(String key, String defaultValue) {
        noteRead(key);
        return super.getProperty(key, defaultValue);
    }

    @Override
    public Object get(Object key) {
        noteRead(key);
        return super.get(key);
    }

    @Override
    public Object getOrDefault(Object key, Object defaultValue) {
        noteRead(key);
        return super.getOrDefault(key, defaultValue);
    }

    @Override
    public boolean containsKey(Object key) {
        noteRead(key);
        return super.containsKey(key);
    }

    // listings of them all

    @Override
    public Set<Object> keySet() {
        noteListing();
        return super.keySet();
    }

    @Override
    public Set<Map.Entry<Object, Object>> entrySet() {
        noteListing();
        return super.entrySet();
    }

    @Override
    public Collection<Object> values() {
        noteListing();
        return super.values();
    }

    @Override
    public Enumeration<Object> keys() {
        noteListing();
        return super.keys();
    }

    @Override
    public Enumeration<Object> elements() {
        noteListing();
        return super.elements();
    }

    @Override
    public Enumeration<?> propertyNames() {
        noteListing();
        return super.propertyNames();
    }

    @Override
    public Set<String> stringPropertyNames() {
        noteListing();
        return super.stringPropertyNames();
    }

    @Override
    public void forEach(BiConsumer<? super Object, ? super Object> action) {
        noteListing();
        super.forEach(action);
    }

    @Override
    public void list(PrintStream out) {
        noteListing();
        super.list(out);
    }

    @Override
    public void list(PrintWriter out) {
        noteListing();
        super.list(out);
    }

    @Override
    public synchronized Object clone() {
        noteListing();
        return super.clone();
    }
}
