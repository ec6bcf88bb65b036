import { describe, expect, it } from 'vitest';
import { approvalsLabel, consoleSection } from './console-nav';

describe('consoleSection', () => {
  it('marks each section on its own page and the pages below it', () => {
    expect(consoleSection('/dashboard')).toBe('overview');
    expect(consoleSection('/dashboard/')).toBe('overview');
    expect(consoleSection('/dashboard/payments')).toBe('payments');
    expect(consoleSection('/dashboard/payments/3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e')).toBe('payments');
    expect(consoleSection('/dashboard/approvals')).toBe('approvals');
    expect(consoleSection('/dashboard/api-keys')).toBe('api-keys');
    expect(consoleSection('/dashboard/audit')).toBe('audit');
  });

  it("puts an agent's pages under Overview, where agents are listed", () => {
    expect(consoleSection('/dashboard/agents/3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e')).toBe('overview');
    expect(consoleSection('/dashboard/agents/3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e/connect')).toBe('overview');
  });

  it('marks nothing outside the console', () => {
    expect(consoleSection('/docs')).toBeNull();
    expect(consoleSection('/dashboardx')).toBeNull();
  });
});

describe('approvalsLabel', () => {
  it('says how many payments wait, and nothing when none do', () => {
    expect(approvalsLabel(2)).toBe('Approvals, 2 waiting');
    expect(approvalsLabel(0)).toBe('Approvals');
    expect(approvalsLabel(undefined)).toBe('Approvals');
  });
});
