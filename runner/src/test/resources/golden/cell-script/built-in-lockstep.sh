set -u
status=0
java -version > /out/java-version.txt 2>&1 || true
echo 'loom: variant pool:10'
ok=1
hyperfine -N --style basic --output inherit --warmup 2 --runs 4 --export-json /out/pool-10.hyperfine.json 'java --add-opens=java.base/java.lang=ALL-UNNAMED -Xmx614m -XX:ActiveProcessorCount=2 -Djdk.virtualThreadScheduler.parallelism=3 -XX:+UseSerialGC -jar /opt/loom/harness.jar sleep-bound --variant pool:10 --param sleepMs=300 --param tasks=20 --out /out/pool-10.records.jsonl' || { echo 'loom: variant pool:10 failed (exit $?)' >&2; echo 'pool:10' >> /out/failed-variants; status=1; ok=0; }
echo 'loom: variant virtual'
ok=1
hyperfine -N --style basic --output inherit --warmup 2 --runs 4 --export-json /out/virtual.hyperfine.json 'java --add-opens=java.base/java.lang=ALL-UNNAMED -Xmx614m -XX:ActiveProcessorCount=2 -Djdk.virtualThreadScheduler.parallelism=3 -XX:+UseSerialGC -jar /opt/loom/harness.jar sleep-bound --variant virtual --param sleepMs=300 --param tasks=20 --out /out/virtual.records.jsonl' || { echo 'loom: variant virtual failed (exit $?)' >&2; echo 'virtual' >> /out/failed-variants; status=1; ok=0; }
exit $status
