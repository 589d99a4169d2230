set -u
status=0
java -version > /out/java-version.txt 2>&1 || true
echo 'loom: variant platform'
ok=1
hyperfine -N --style basic --output inherit --warmup 0 --runs 2 --export-json /out/platform.hyperfine.json ''"'"'java'"'"' '"'"'-Xmx1228m'"'"' '"'"'-Dloom.variant=platform'"'"' '"'"'-Dloom.collect=/out/platform.result.json'"'"' '"'"'-javaagent:/opt/loom/agent.jar=/out/platform.records.jsonl'"'"' '"'"'-jar'"'"' '"'"'/opt/loom/user/0/benchmarks.jar'"'"' '"'"'threadsByParam'"'"' '"'"'-p'"'"' '"'"'threadType=PLATFORM'"'"' '"'"'-i'"'"' '"'"'2'"'"' '"'"'-r'"'"' '"'"'1s'"'"' '"'"'-f'"'"' '"'"'0'"'"' '"'"'-foe'"'"' '"'"'true'"'"' '"'"'-rf'"'"' '"'"'json'"'"' '"'"'-rff'"'"' '"'"'/out/platform.result.json'"'"'' || { echo 'loom: variant platform failed (exit $?)' >&2; echo 'platform' >> /out/failed-variants; status=1; ok=0; }
echo 'loom: variant virtual'
ok=1
hyperfine -N --style basic --output inherit --warmup 0 --runs 2 --export-json /out/virtual.hyperfine.json ''"'"'java'"'"' '"'"'-Xmx1228m'"'"' '"'"'-Dloom.variant=virtual'"'"' '"'"'-Dloom.collect=/out/virtual.result.json'"'"' '"'"'-javaagent:/opt/loom/agent.jar=/out/virtual.records.jsonl'"'"' '"'"'-jar'"'"' '"'"'/opt/loom/user/0/benchmarks.jar'"'"' '"'"'threadsByParam'"'"' '"'"'-p'"'"' '"'"'threadType=VIRTUAL'"'"' '"'"'-i'"'"' '"'"'2'"'"' '"'"'-r'"'"' '"'"'1s'"'"' '"'"'-f'"'"' '"'"'0'"'"' '"'"'-foe'"'"' '"'"'true'"'"' '"'"'-rf'"'"' '"'"'json'"'"' '"'"'-rff'"'"' '"'"'/out/virtual.result.json'"'"'' || { echo 'loom: variant virtual failed (exit $?)' >&2; echo 'virtual' >> /out/failed-variants; status=1; ok=0; }
exit $status
