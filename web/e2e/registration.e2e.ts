import { expect, request, test } from '@playwright/test';
import type { InviteCodeResponse } from '@seatlink/contracts';
import { expectNoA11yViolations } from './support/axe';
import { linkIn, waitForMail } from './support/mail-catcher';
import {
  createVerifiedUser,
  demo,
  generateInviteCode,
  inviteRow,
  newUser,
  signIn,
  submitRegistration,
  submitSignIn,
  utcDate,
} from './support/session';

const VERIFY_SUBJECT = /Verify your email address/;

test('an invitee registers with a new code, verifies the address, signs in and out; the code counts the use', async ({
  page,
  browser,
}) => {
  // The admin makes a code (docs/reference.md "Admin screens").
  await signIn(page, demo.admin);
  await page.goto('/admin/invites');
  const code = await generateInviteCode(page, 5);
  const row = inviteRow(page, code);
  await expect(row).toHaveAttribute('data-status', 'Active');
  await expect(row.getByTestId('invite-code')).toHaveText(code);
  await expect(row.getByTestId('invite-usage')).toHaveText('0 / 5');
  await expect(row.getByTestId('usage-bar')).toHaveAttribute('data-level', 'green');

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  try {
    const user = newUser('register');
    let registerCalls = 0;
    visitor.on('request', (req) => {
      if (new URL(req.url()).pathname === '/v1/auth/register') registerCalls++;
    });

    // The link an invitee gets prefills the code.
    await visitor.goto(`/register?code=${code}`);
    await expect(visitor.getByLabel('Invite Code', { exact: true })).toHaveValue(code);
    await visitor.getByLabel('Email', { exact: true }).fill(user.email);
    await visitor.getByLabel('First Name', { exact: true }).fill(user.firstName);
    await visitor.getByLabel('Last Name', { exact: true }).fill(user.lastName);

    // docs/reference.md "Password rules": a weak password shows the rules and their messages first.
    const password = visitor.getByLabel('Password', { exact: true });
    const confirmation = visitor.getByLabel('Confirm Password', { exact: true });
    const rule = (key: string) => visitor.getByTestId(`password-rule-${key}`);
    await expect(visitor.getByTestId('password-rules')).toBeVisible();
    await password.fill('abc');
    await expect(visitor.getByText('Password must be at least 8 characters long')).toBeVisible();
    await expect(rule('length')).toHaveAttribute('data-met', 'false');
    await expect(rule('lowercase')).toHaveAttribute('data-met', 'true');
    await expect(rule('uppercase')).toHaveAttribute('data-met', 'false');
    await expect(rule('digit')).toHaveAttribute('data-met', 'false');
    await expect(rule('special')).toHaveAttribute('data-met', 'false');
    await password.fill('abcdefgh');
    await expect(
      visitor.getByText('Password must contain uppercase, lowercase, numbers, and special characters'),
    ).toBeVisible();
    await expect(visitor.getByText('Password must be at least 8 characters long')).toHaveCount(0);
    await expect(rule('length')).toHaveAttribute('data-met', 'true');
    await confirmation.fill('abcdefgh');
    await visitor.getByRole('button', { name: 'Create Account' }).click();
    await expect(visitor.getByTestId('register-form-error')).toHaveText('Please meet all password requirements');
    await expectNoA11yViolations(visitor, 'registration with errors');

    // A strong password meets every rule; a differing confirmation says so and nothing is sent.
    await password.fill(user.password);
    for (const key of ['length', 'uppercase', 'lowercase', 'digit', 'special']) {
      await expect(rule(key)).toHaveAttribute('data-met', 'true');
    }
    await expect(visitor.getByTestId('password-hint')).toHaveCount(0);
    await expect(visitor.getByTestId('register-form-error')).toHaveCount(0);
    await confirmation.fill(`${user.password}x`);
    await expect(visitor.getByTestId('password-mismatch')).toHaveText('Passwords do not match');
    await visitor.getByRole('button', { name: 'Create Account' }).click();
    await expect(confirmation).toBeFocused();
    await expect(visitor).toHaveURL(/\/register\?code=/);
    expect(registerCalls).toBe(0);

    await confirmation.fill(user.password);
    await expect(visitor.getByTestId('password-mismatch')).toHaveCount(0);
    const registeredAt = Date.now();
    await visitor.getByRole('button', { name: 'Create Account' }).click();
    await expect(visitor.getByTestId('register-success')).toBeVisible();
    const successAt = Date.now();
    await expectNoA11yViolations(visitor, 'registration done');
    expect(registerCalls).toBe(1);

    // docs/reference.md "Routing rules": on success the user is sent to /login after 5 seconds.
    await expect(visitor).toHaveURL(/\/login$/, { timeout: 10_000 });
    expect(Date.now() - successAt).toBeGreaterThanOrEqual(4_000);

    // Not verified yet: the server's message with a resend button (docs/reference.md "Sign-in and password screens",
    // "Error codes").
    const firstMail = await waitForMail(user.email, VERIFY_SUBJECT, registeredAt);
    await submitSignIn(visitor, user);
    const notice = visitor.getByTestId('email-not-verified-notice');
    await expect(notice).toBeVisible();
    await expect(visitor.getByTestId('login-error')).toHaveCount(0);
    await expectNoA11yViolations(visitor, 'sign-in, email not verified');
    await expect(visitor).toHaveURL(/\/login$/);
    await notice.getByRole('button', { name: 'Resend verification email' }).click();
    await expect(visitor.getByTestId('resend-verification-success')).toBeVisible();
    // docs/reference.md "Limits and constants": the notice hides 5 seconds after a successful resend.
    await expect(notice).toBeHidden({ timeout: 10_000 });

    // A new link was sent; the newest one is the one that works.
    const resent = await waitForMail(user.email, VERIFY_SUBJECT, firstMail.receivedAt + 1);
    const link = linkIn(resent);
    expect(link).not.toBe(linkIn(firstMail));
    expect(new URL(link).pathname).toBe('/verify-email');
    await visitor.goto(link);
    await expect(visitor.getByTestId('verify-status')).toHaveAttribute('data-state', 'success');
    await expectNoA11yViolations(visitor, 'email verified');
    await expect(visitor).toHaveURL(/\/login$/, { timeout: 10_000 });

    await signIn(visitor, user);
    await expect(visitor.getByTestId('user-email')).toHaveText(user.email);
    await visitor.getByRole('button', { name: 'Logout' }).click();
    await expect(visitor).toHaveURL(/\/login$/);
    await expect(visitor.getByText('Successfully logged out')).toBeVisible();
  } finally {
    await visitorContext.close();
  }

  // The code shows the use.
  await page.reload();
  await expect(row.getByTestId('invite-usage')).toHaveText('1 / 5');
  await expect(row.getByTestId('usage-bar')).toHaveAttribute('data-level', 'green');
  await expect(row).toHaveAttribute('data-status', 'Active');
});

test('registering with a taken address shows what a new address shows; the owner is told by e-mail', async ({
  page,
}) => {
  const owner = await createVerifiedUser(page, 'owner');
  const api = await request.newContext({ baseURL: process.env.E2E_BASE_URL });
  let code: string;
  try {
    expect((await api.post('/v1/auth', { data: { ...demo.admin, token: null } })).status()).toBe(200);
    const invite = await api.post('/v1/admin/invites', { data: { max_uses: 5, expires_at: utcDate(2) } });
    code = ((await invite.json()) as InviteCodeResponse).invite_code.code;
  } finally {
    await api.dispose();
  }

  const fresh = newUser('fresh');
  await submitRegistration(page, fresh, code);
  await expect(page.getByTestId('register-success')).toBeVisible();
  const shownForNew = await page.getByTestId('register-success').textContent();
  expect(shownForNew).toContain('Please check your email');

  const triedAt = Date.now();
  await submitRegistration(page, { ...newUser('taken'), email: owner.email }, code);
  await expect(page.getByTestId('register-success')).toHaveText(shownForNew!);
  await expect(page.getByTestId('register-form-error')).toHaveCount(0);

  const mail = await waitForMail(owner.email, /Someone tried to register with your email address/, triedAt);
  expect(mail.text).toContain('/login');
  // The owner's account is as it was: their own password still signs them in.
  await signIn(page, owner);
});
