import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** WCAG 2.2 A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

function describe(violation: Violation): string {
  const nodes = violation.nodes
    .slice(0, 5)
    .map((node) => node.target.join(' '))
    .join(' | ');
  return `${violation.impact} ${violation.id}: ${violation.help} (${nodes})`;
}

/**
 * Runs axe-core on what `page` shows now and fails on any serious or critical violation, naming each with the
 * elements concerned. Waits for running animations to end first (a dialog fading in would read as low contrast);
 * endless ones (spinners) and cancelled ones (a toast leaving) do not hold it up.
 */
export async function expectNoA11yViolations(page: Page, screen: string): Promise<void> {
  const settle = () =>
    page.evaluate(() =>
      Promise.allSettled(
        document
          .getAnimations()
          .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
          .map((animation) => animation.finished),
      ),
    );
  const blocking = async () => {
    await settle();
    const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    return results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map(describe);
  };
  // Something that came in while the page was read (a toast fading in after a push) is read again once it settled.
  const first = await blocking();
  const found = first.length === 0 ? first : await blocking();
  expect(found, `serious or critical axe violations on ${screen}`).toEqual([]);
}
