/**
 * One Lighthouse run (the `lighthouse` package, its default configuration: a phone, simulated slow 4G and a 4× slower
 * CPU) in a fresh headless Chromium of this machine (CHROMIUM_PATH, the browser tests' flags), launched by
 * chrome-launcher: nothing is downloaded.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './chromium.js';

export interface LighthouseRun {
  /** Category scores × 100 (0–100). */
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** Largest Contentful Paint, First Contentful Paint (ms), Total Blocking Time (ms), Cumulative Layout Shift. */
  lcpMs: number;
  fcpMs: number;
  tbtMs: number;
  cls: number;
  /** The audits that failed in accessibility, best practices and SEO (ids), to say what keeps them below 100. */
  failed: string[];
  /** Where the page ended (after redirects: a dashboard that sent to /login was not signed in). */
  finalUrl: string;
  /** Lighthouse's own warnings about the run (e.g. the page was slow to settle). */
  warnings: string[];
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

/** Attempts of one run: Lighthouse's own failures of a run (NO_NAVSTART, NO_FCP on a busy machine) say "run again". */
const ATTEMPTS = 3;

/**
 * Runs Lighthouse on `url`; `headers` go with every request (a session cookie: the dashboard signed in). A run that
 * Lighthouse itself reports as failed (a runtime error: its trace went wrong) is run again in a fresh browser, up to
 * three attempts, and said in the output.
 */
export async function runLighthouse(url: string, headers: Record<string, string> = {}): Promise<LighthouseRun> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runOnce(url, headers);
    } catch (err) {
      if (!(err instanceof LighthouseRuntimeError) || attempt >= ATTEMPTS) throw err;
      console.log(`${err.message}: attempt ${attempt} of ${ATTEMPTS}, running again`);
    }
  }
}

class LighthouseRuntimeError extends Error {}

/**
 * With BENCH_LIGHTHOUSE_REPORTS set to a directory, each run's whole report (JSON) is written there, named after the
 * page's path and the run's time: what kept a score down, in Lighthouse's own words.
 */
function keepReport(url: string, lhr: unknown) {
  const dir = process.env.BENCH_LIGHTHOUSE_REPORTS;
  if (!dir) return;
  const page = new URL(url).pathname.split('/').filter(Boolean)[0] ?? 'root';
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, `${new URL(url).port}-${page}-${Date.now()}.json`), JSON.stringify(lhr));
}

async function runOnce(url: string, headers: Record<string, string>): Promise<LighthouseRun> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: [...CHROMIUM_FLAGS] });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      extraHeaders: headers,
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const { lhr } = result;
    keepReport(url, lhr);
    if (lhr.runtimeError) {
      throw new LighthouseRuntimeError(`Lighthouse on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    }
    const score = (id: (typeof CATEGORIES)[number]) => {
      const value = lhr.categories[id]?.score;
      if (typeof value !== 'number') throw new Error(`Lighthouse on ${url} has no ${id} score`);
      return Math.round(value * 100);
    };
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const failed = CATEGORIES.filter((c) => c !== 'performance').flatMap((c) =>
      (lhr.categories[c]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && lhr.audits[ref.id]?.score !== null && lhr.audits[ref.id]!.score! < 1)
        .map((ref) => ref.id),
    );
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcpMs: Math.round(numeric('largest-contentful-paint')),
      fcpMs: Math.round(numeric('first-contentful-paint')),
      tbtMs: Math.round(numeric('total-blocking-time')),
      cls: Math.round(numeric('cumulative-layout-shift') * 1000) / 1000,
      failed,
      finalUrl: lhr.finalDisplayedUrl,
      warnings: lhr.runWarnings,
    };
  } finally {
    chrome.kill();
  }
}
