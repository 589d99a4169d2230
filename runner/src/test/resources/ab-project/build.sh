#!/bin/sh
# The team's build (LOOM_BENCHMARK_BUILD): compiles the program into build/work.jar, reproducibly (the
# same source gives the same bytes, so an A/A run's sides do not differ).
set -eu
java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}"
rm -rf build && mkdir -p build/classes
"${java_bin}javac" -d build/classes src/Work.java
"${java_bin}jar" --create --date=2026-01-01T00:00:00Z --file build/work.jar -C build/classes .
