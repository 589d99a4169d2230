import { defineConfig, type Plugin } from "vite";

// `base: "./"`: every asset URL is relative, so the built site works from any sub-path (a GitHub Pages
// project site) and from any static host, with no rebuild per host.
export default defineConfig({
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: false,
    modulePreload: { polyfill: false }, // the polyfill is an inline script, which the CSP forbids
  },
  plugins: [siteFileList()],
});

/** Lists every file of the build for the runner, which installs them into a site (SitePublisher). */
function siteFileList(): Plugin {
  return {
    name: "loom-matrix-site-files",
    enforce: "post",
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((f) => f !== "site-files.json").sort();
      this.emitFile({ type: "asset", fileName: "site-files.json", source: `${JSON.stringify(files, null, 2)}\n` });
    },
  };
}
