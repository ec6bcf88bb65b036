// /responsible-ai: the commitments from docs-content/responsible-ai.md, the policy resources
// (all to the external booking page) and the contact: email, Slack channel, office hours.
import { expect, test } from '@playwright/test';
import { auditPage } from '../support/page-checks';
import { gotoHydrated } from '../support/hydration';

const BOOKING_URL = 'https://booking.purser.example/intro-call';

test.describe('responsible AI page', () => {
  test('shows the principles, safety, privacy and operations commitments', async ({ page }, testInfo) => {
    await gotoHydrated(page, '/responsible-ai');
    await expect(page.getByRole('heading', { level: 1, name: 'Responsible AI' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Page links' }).getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/');

    for (const part of ['Principles', 'Safety', 'Privacy', 'Operations']) {
      const region = page.getByRole('region', { name: part });
      await expect(region.getByRole('heading', { level: 2, name: part })).toBeVisible();
      expect(await region.getByRole('listitem').count(), part).toBeGreaterThanOrEqual(3);
    }
    await expect(page.getByRole('region', { name: 'Principles' })).toContainText('People stay accountable.');
    await expect(page.getByRole('region', { name: 'Privacy' })).toContainText('Operational logs are kept for 13 months.');
    // Headings carry the ids the content's links are checked against.
    await expect(page.locator('h2#safety')).toHaveText('Safety');

    await auditPage(page, testInfo, 'responsible-ai', async () => {
      await gotoHydrated(page, '/responsible-ai');
      await expect(page.getByRole('heading', { level: 1, name: 'Responsible AI' })).toBeVisible();
    });
  });

  test('links every policy resource to the booking page', async ({ page }) => {
    await gotoHydrated(page, '/responsible-ai');
    const resources = page.getByRole('region', { name: 'Policy resources' });
    for (const action of ['Request a copy', 'Schedule a workshop', 'Request a workshop']) {
      const link = resources.getByRole('link', { name: action });
      await expect(link).toHaveAttribute('href', BOOKING_URL);
      await expect(link).toHaveAttribute('target', '_blank');
      await expect(link).toHaveAttribute('rel', /noopener/);
    }
  });

  test('gives the contact email, the Slack channel and the office hours', async ({ page }) => {
    await gotoHydrated(page, '/responsible-ai');
    const contact = page.getByRole('region', { name: 'Contact and office hours' });
    await expect(contact.getByRole('link', { name: 'responsible-ai@purser.example' })).toHaveAttribute('href', 'mailto:responsible-ai@purser.example');
    await expect(contact.getByRole('definition').filter({ hasText: '#purser-responsible-ai' })).toBeVisible();
    await expect(contact.getByRole('definition').filter({ hasText: 'Wednesdays 16:00-18:00 UTC' })).toBeVisible();
  });
});
