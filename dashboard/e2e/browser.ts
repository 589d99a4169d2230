import { type Browser, chromium, type Page } from "playwright-core";

// Debian's Chromium, driven by playwright-core (no browser download). The background-networking flags
// keep it from dialling out on a host without a network.

export const CHROMIUM = process.env.LOOM_CHROMIUM ?? "/usr/bin/chromium";

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Problems the page reported: script errors, CSP violations, failed requests. */
export function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error" || /Content Security Policy/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on("requestfailed", (r) => {
    // a framed page whose load a re-render cut short (the view draws again when the window's width changes)
    // is not a failure; anything else is
    if (r.resourceType() === "document" && r.frame() !== page.mainFrame() && r.failure()?.errorText === "net::ERR_ABORTED") return;
    problems.push(`request failed: ${r.url()} (${r.failure()?.errorText ?? "?"})`);
  });
  return problems;
}

/** Waits until the dashboard says the view is rendered (main.ts sets data-ready). */
export async function ready(page: Page, view: string): Promise<void> {
  await page.waitForFunction((v) => document.documentElement.dataset.ready === v, view, { timeout: 30_000 });
}
