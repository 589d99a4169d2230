import { defineConfig } from "vitest/config";

// End-to-end: real publish (the runner's jar), a static host under a sub-path, real Chromium.
export default defineConfig({
  test: {
    include: ["e2e/**/*.e2e.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
