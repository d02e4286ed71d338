import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/axe';
import { newUser } from './support/session';

/** Counts the calls to POST /v1/waitlist the page makes. */
function countWaitlistCalls(page: Page): () => number {
  let calls = 0;
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === '/v1/waitlist') calls++;
  });
  return () => calls;
}

async function fillNames(page: Page) {
  await page.getByLabel('First Name', { exact: true }).fill('Wendy');
  await page.getByLabel('Last Name', { exact: true }).fill('Waiting');
}

test.describe("waitlist, 'Register Interest' (docs/reference.md#registration-and-waitlist-screens and #form-rules)", () => {
  test('an invalid e-mail address is named and nothing is sent', async ({ page }) => {
    const calls = countWaitlistCalls(page);
    await page.goto('/waitlist');
    await expect(page.getByRole('heading', { name: 'Register Interest' })).toBeVisible();
    await expectNoA11yViolations(page, 'waitlist');
    await fillNames(page);
    const email = page.getByLabel('Email Address', { exact: true });
    const submit = page.getByRole('button', { name: 'Notify Me When Registrations Open' });
    const error = page.getByTestId('waitlist-email-error');

    // Refused by the browser's own e-mail check, and by the waitlist's pattern (docs/reference.md "Form rules": no dot
    // and ending after the at sign).
    for (const address of ['not-an-email', 'someone@example', 'someone@example.c']) {
      await email.fill(address);
      await expect(error).toHaveCount(0);
      await submit.click();
      await expect(error).toHaveText('Please enter a valid email address');
    }
    await expectNoA11yViolations(page, 'waitlist with an error');
    // Give a stray call time to show itself before counting.
    await page.waitForLoadState('networkidle');
    expect(calls()).toBe(0);
    await expect(page.getByTestId('waitlist-success')).toHaveCount(0);
  });

  test('a valid address replaces the form with the success panel', async ({ page }) => {
    const calls = countWaitlistCalls(page);
    await page.goto('/waitlist');
    await fillNames(page);
    await page.getByLabel('Email Address', { exact: true }).fill(newUser('waitlist').email);
    const answered = page.waitForResponse((res) => new URL(res.url()).pathname === '/v1/waitlist');
    await page.getByRole('button', { name: 'Notify Me When Registrations Open' }).click();
    expect((await answered).ok()).toBe(true);
    const success = page.getByTestId('waitlist-success');
    await expect(success).toContainText("You're on the list!");
    await expect(success).toContainText("We'll notify you when registrations open");
    await expectNoA11yViolations(page, 'waitlist done');
    await expect(page.getByTestId('waitlist-email-error')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Notify Me When Registrations Open' })).toHaveCount(0);
    expect(calls()).toBe(1);
  });
});
