import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

// The runner's real `publish`, from the jar Maven built (LOOM_MATRIX_JAR), with the build's JDK.

export function publish(runDir: string, site: string): void {
  const jar = process.env.LOOM_MATRIX_JAR ?? join(import.meta.dirname ?? ".", "..", "..", "runner", "target", "loom-matrix.jar");
  if (!existsSync(jar)) throw new Error(`no runner jar at ${jar}: build it first (./mvnw package)`);
  const java = process.env.JAVA_HOME ? join(process.env.JAVA_HOME, "bin", "java") : "java";
  execFileSync(java, ["-jar", jar, "publish", "--run", runDir, "--site", site, "--publish-recordings"], { stdio: ["ignore", "ignore", "inherit"] });
}
