/**
 * Lighthouse (mobile, simulated slow 4G: its default configuration) on three pages of the real product holding
 * 10,000 tickets for one user (browser/product.ts): `lighthouse-login` (/login), `lighthouse-dashboard` (/dashboard,
 * signed in: the session cookie goes with every request) and `lighthouse-link` (the recipient page of one of the
 * user's links, not signed in). Baseline: Lighthouse on a plain static page served by the bench, in the same rounds.
 * Figure: the performance score × 100 (median of the rounds); goal ≥ 95. Recorded beside it: accessibility, best
 * practices and SEO scores, LCP, FCP, TBT and CLS (medians), and the audits that kept a category below 100.
 *
 * Rounds: `BENCH_LIGHTHOUSE_ROUNDS`, default 3 (a run takes 10–30 s; Lighthouse's own spread is a few points).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runLighthouse, type LighthouseRun } from './browser/lighthouse.js';
import { startPlainPages, type PlainPages } from './browser/plain-pages.js';
import { startBigAccount, type Product } from './browser/product.js';
import { entryFromRounds, median, recordResults, round } from './results.js';
import { fmt, loadAverageAtStart, noteLoadAtStart, printTable, roundOrder } from './support.js';

const ROUNDS = Math.max(1, Number(process.env.BENCH_LIGHTHOUSE_ROUNDS ?? 3) || 3);
const PAGES = ['login', 'dashboard', 'link'] as const;
type Subject = (typeof PAGES)[number] | 'plain';

describe('Lighthouse on the product with 10,000 tickets', () => {
  let product: Product;
  let plain: PlainPages;
  let linkUrl: string;

  beforeAll(async () => {
    noteLoadAtStart();
    product = await startBigAccount();
    [linkUrl] = (await product.makeLinks(1)) as [string];
    plain = await startPlainPages();
  }, 900_000);
  afterAll(async () => {
    await plain?.close();
    await product?.stop();
  });

  it('lighthouse-login, lighthouse-dashboard, lighthouse-link against a plain page', async () => {
    const run = (subject: Subject): Promise<LighthouseRun> => {
      switch (subject) {
        case 'plain':
          return runLighthouse(`${plain.url}/`);
        case 'login':
          return runLighthouse(`${product.baseUrl}/login`);
        case 'dashboard':
          return runLighthouse(`${product.baseUrl}/dashboard`, { Cookie: product.cookie });
        case 'link':
          return runLighthouse(linkUrl);
      }
    };
    const runs: Record<Subject, LighthouseRun[]> = { plain: [], login: [], dashboard: [], link: [] };
    for (let r = 0; r < ROUNDS; r++) {
      for (const subject of roundOrder(r, ['plain', ...PAGES] as const)) {
        const got = await run(subject);
        console.log(
          `round ${r + 1} ${subject}: performance ${got.performance}, LCP ${fmt.int(got.lcpMs)} ms, ` +
            `TBT ${fmt.int(got.tbtMs)} ms, a11y ${got.accessibility}, best practices ${got.bestPractices}, ` +
            `SEO ${got.seo}${got.warnings.length > 0 ? ` (warnings: ${got.warnings.join(' | ')})` : ''}`,
        );
        runs[subject].push(got);
      }
    }
    for (const subject of ['plain', ...PAGES] as const) expect(runs[subject]).toHaveLength(ROUNDS);
    // Each page was the page meant: the dashboard signed in (not sent to /login), the link's own page.
    for (const x of runs.dashboard) expect(new URL(x.finalUrl).pathname).toBe('/dashboard');
    for (const x of runs.link) expect(x.finalUrl).toBe(linkUrl);

    const med = (subject: Subject, field: keyof Omit<LighthouseRun, 'failed' | 'warnings' | 'finalUrl'>) =>
      median(runs[subject].map((x) => x[field]));
    const columns = (subject: Subject) => [
      subject === 'plain' ? 'plain page (baseline)' : subject,
      fmt.int(med(subject, 'performance')),
      runs[subject].map((x) => x.performance).join(' '),
      fmt.int(med(subject, 'lcpMs')),
      fmt.int(med(subject, 'fcpMs')),
      fmt.int(med(subject, 'tbtMs')),
      fmt.fixed(med(subject, 'cls'), 3),
      `${fmt.int(med(subject, 'accessibility'))} / ${fmt.int(med(subject, 'bestPractices'))} / ${fmt.int(med(subject, 'seo'))}`,
    ];
    printTable(
      `Lighthouse (mobile, simulated slow 4G), ${ROUNDS} rounds, medians; ${product.backend}, ${fmt.int(product.tickets)} tickets`,
      ['page', 'performance', 'per round', 'LCP ms', 'FCP ms', 'TBT ms', 'CLS', 'a11y / best pr. / SEO'],
      [...PAGES.map(columns), columns('plain')],
    );

    const urls: Record<(typeof PAGES)[number], string> = {
      login: '/login',
      dashboard: '/dashboard (signed in)',
      link: '/l/<code> (a link of the user)',
    };
    await recordResults(
      PAGES.map((subject) => ({
        ...entryFromRounds(
          `lighthouse-${subject}`,
          {
            unit: 'performance score ×100',
            baselineUnit: 'performance score ×100',
            baselineName: 'Lighthouse of a plain static page (no script, no style sheet), in the same rounds',
          },
          runs[subject].map((x, i) => ({ figure: x.performance, baseline: runs.plain[i]!.performance })),
          { goal: { field: 'figure', atLeast: 95 } },
        ),
        page: urls[subject],
        accessibility: med(subject, 'accessibility'),
        bestPractices: med(subject, 'bestPractices'),
        seo: med(subject, 'seo'),
        lcpMs: round(med(subject, 'lcpMs')),
        fcpMs: round(med(subject, 'fcpMs')),
        tbtMs: round(med(subject, 'tbtMs')),
        cls: med(subject, 'cls'),
        failedAudits: [...new Set(runs[subject].flatMap((x) => x.failed))].sort(),
        baselineFailedAudits: [...new Set(runs.plain.flatMap((x) => x.failed))].sort(),
        settings: 'lighthouse defaults: mobile, simulated throttling (slow 4G, 4× CPU slowdown)',
        backend: product.backend,
        tickets: product.tickets,
        loadAverageAtStart: loadAverageAtStart(),
      })),
    );
  }, 1_800_000);
});
