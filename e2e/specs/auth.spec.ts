// The /auth page and the session around it (spec sections 2, 4, 5 and 8): signing up with an
// invitation code, signing in and out, the validation and refusal messages, a session that
// survives a reload, and the page's accessibility and layout in both themes.
import { expect, test, type Locator, type Page } from '@playwright/test';
import { invitationCode, newOwnerDetails, signUpOwner } from '../support/owner';
import { expectNoSeriousViolations } from '../support/page-checks';

const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });

const SIGN_UP_LABELS = {
  invitationCode: 'Invitation Code',
  fullName: 'Full Name',
  email: 'Email',
  password: 'Password',
  confirmPassword: 'Confirm Password',
} as const;

/** A field by its label; required fields' labels end in an asterisk, which is part of the name. */
function field(scope: Locator, label: string): Locator {
  return scope.getByLabel(new RegExp(`^${label}\\b`));
}

async function openSignUp(page: Page) {
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  return page.getByRole('form', { name: 'Sign up' });
}

async function fillSignUp(
  page: Page,
  values: { invitationCode?: string; fullName?: string; email?: string; password?: string; confirmPassword?: string },
) {
  const form = page.getByRole('form', { name: 'Sign up' });
  for (const [key, label] of Object.entries(SIGN_UP_LABELS) as Array<[keyof typeof SIGN_UP_LABELS, string]>) {
    const value = values[key];
    if (value !== undefined) await field(form, label).fill(value);
  }
}

async function signInThroughPage(page: Page, email: string, password: string) {
  await page.goto('/auth');
  const form = page.getByRole('form', { name: 'Sign in' });
  await field(form, 'Email').fill(email);
  await field(form, 'Password').fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

test.describe('sign up', () => {
  test('a new owner signs up with an invitation code and lands on the dashboard', async ({ page }) => {
    const owner = newOwnerDetails();
    await openSignUp(page);
    await fillSignUp(page, {
      invitationCode: invitationCode(),
      fullName: owner.fullName,
      email: owner.email,
      password: owner.password,
      confirmPassword: owner.password,
    });
    await page.getByRole('button', { name: 'Create Account' }).click();

    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(toasts(page).getByText('Account created successfully!')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    // Only the metadata is kept in the browser, never a token.
    const stored = await page.evaluate(() => localStorage.getItem('purser-session'));
    expect(JSON.parse(stored ?? 'null')).toMatchObject({ user: { email: owner.email } });
    expect(stored).not.toMatch(/token/);
  });

  test('shows the first validation message of the form, on its field', async ({ page }) => {
    const form = await openSignUp(page);
    const submit = form.getByRole('button', { name: 'Create Account' });
    const cases: Array<{ values: Parameters<typeof fillSignUp>[1]; label: string; message: string }> = [
      { values: {}, label: 'Full Name', message: 'Name must be at least 2 characters' },
      { values: { fullName: ' A ' }, label: 'Full Name', message: 'Name must be at least 2 characters' },
      { values: { fullName: 'Ada Lovelace', email: 'not-an-email' }, label: 'Email', message: 'Invalid email address' },
      { values: { email: 'ada@example.test', password: '12345' }, label: 'Password', message: 'Password must be at least 6 characters' },
      { values: { password: '123456', confirmPassword: '654321' }, label: 'Confirm Password', message: "Passwords don't match" },
      { values: { confirmPassword: '123456', invitationCode: '   ' }, label: 'Invitation Code', message: 'Invitation code is required' },
    ];
    for (const { values, label, message } of cases) {
      await fillSignUp(page, values);
      await submit.click();
      const input = field(form, label);
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await expect(input).toHaveAccessibleDescription(message);
      await expect(input).toBeFocused();
      await expect(toasts(page).getByText(message).first()).toBeVisible();
      // Only the first message is shown.
      await expect(form.locator('[aria-invalid="true"]')).toHaveCount(1);
    }
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('refuses an invitation code that does not exist', async ({ page }) => {
    const owner = newOwnerDetails();
    await openSignUp(page);
    await fillSignUp(page, {
      invitationCode: 'PURSER-NOT-A-REAL-CODE',
      fullName: owner.fullName,
      email: owner.email,
      password: owner.password,
      confirmPassword: owner.password,
    });
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(toasts(page).getByText('Invalid or expired invitation code')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('button', { name: 'Create Account' })).toBeEnabled();
  });

  test('tells an owner whose email is taken to sign in instead', async ({ page, request }) => {
    const existing = await signUpOwner(request);
    await openSignUp(page);
    await fillSignUp(page, {
      invitationCode: invitationCode(),
      fullName: 'Someone Else',
      email: existing.email,
      password: 'another password',
      confirmPassword: 'another password',
    });
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(toasts(page).getByText('This email is already registered. Please sign in instead.')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
  });
});

test.describe('sign in and out', () => {
  test('shows the sign-in validation messages', async ({ page }) => {
    await page.goto('/auth');
    const form = page.getByRole('form', { name: 'Sign in' });
    await form.getByRole('button', { name: 'Sign In' }).click();
    await expect(field(form, 'Email')).toHaveAccessibleDescription('Invalid email address');
    await field(form, 'Email').fill('owner@example.test');
    await form.getByRole('button', { name: 'Sign In' }).click();
    await expect(field(form, 'Password')).toHaveAccessibleDescription('Password is required');
    await expect(toasts(page).getByText('Password is required')).toBeVisible();
  });

  test('refuses a wrong password', async ({ page, request }) => {
    const owner = await signUpOwner(request);
    await signInThroughPage(page, owner.email, 'not the password');
    await expect(toasts(page).getByText('Invalid email or password. Please try again.')).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
  });

  test('signs in, keeps the session across a reload, and signs out', async ({ page, request }) => {
    const owner = await signUpOwner(request);
    await signInThroughPage(page, owner.email, owner.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(toasts(page).getByText('Welcome back!')).toBeVisible();

    await page.reload();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

    // Signed in, /auth sends the owner on to the dashboard.
    await page.goto('/auth');
    await expect(page).toHaveURL(/\/dashboard$/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/auth$/);
    expect(await page.evaluate(() => localStorage.getItem('purser-session'))).toBeNull();

    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/auth$/);
    await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  });

  test('a sign-out in one tab signs out the others', async ({ context, request }) => {
    const owner = await signUpOwner(request);
    const first = await context.newPage();
    await signInThroughPage(first, owner.email, owner.password);
    await expect(first).toHaveURL(/\/dashboard$/);
    const second = await context.newPage();
    await second.goto('/dashboard');
    await expect(second.getByRole('button', { name: 'Sign out' })).toBeVisible();

    // Playwright's actionability checks need animation frames, which only the front tab gets.
    await first.bringToFront();
    await first.getByRole('button', { name: 'Sign out' }).click();
    await expect(first).toHaveURL(/\/auth$/);
    await expect(second).toHaveURL(/\/auth$/);
  });
});

test.describe('auth page', () => {
  test('links back home and to the legal pages', async ({ page }) => {
    await page.goto('/auth');
    // The first page of a fresh browser context on a machine busy with the other suites may take
    // longer than the default wait to render (CI saw the heading arrive after 5 s).
    await expect(page.getByRole('heading', { level: 1, name: 'Wallets for You and Your AI Agents' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    await expect(page.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`has no serious accessibility violations in the ${theme} theme`, async ({ page }) => {
      await page.addInitScript((mode) => localStorage.setItem('purser-theme', mode), theme);
      await page.goto('/auth');
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      for (const tab of ['Sign In', 'Sign Up']) {
        await page.getByRole('tab', { name: tab }).click();
        await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
        await expectNoSeriousViolations(page, `${tab} tab (${theme})`);
      }
    });
  }

  for (const width of [1280, 390]) {
    test(`lays out at ${width} px wide`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/auth');
      await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBe(0);
      await page.screenshot({ path: testInfo.outputPath(`auth-sign-in-${width}.png`), fullPage: true, animations: 'disabled' });
      await page.getByRole('tab', { name: 'Sign Up' }).click();
      await page.getByRole('button', { name: 'Create Account' }).click();
      await expect(field(page.locator('body'), 'Full Name')).toHaveAttribute('aria-invalid', 'true');
      await expect(toasts(page).getByText('Name must be at least 2 characters')).toBeVisible();
      await page.mouse.move(0, 0);
      await page.screenshot({ path: testInfo.outputPath(`auth-sign-up-${width}.png`), fullPage: true, animations: 'disabled' });
    });
  }
});
