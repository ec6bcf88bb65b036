import { describe, expect, it } from 'vitest';
import { FAQ } from './faq';
import { PILLARS } from './pillars';
import { USE_CASES } from './use-cases';
import { WALLS } from './walls';

const nonEmpty = (text: string) => text.trim().length > 0;
const unique = (values: readonly string[]) => new Set(values).size === values.length;

describe('the landing page content', () => {
  it('names the four walls of the spec, each with how Purser goes through it', () => {
    expect(WALLS.map((wall) => wall.title)).toEqual([
      'Robot blockers',
      'Payment rails not built for agents',
      'Identity too heavy or too weak',
      'Brittle integrations',
    ]);
    for (const wall of WALLS) expect(nonEmpty(wall.wall) && nonEmpty(wall.through), wall.id).toBe(true);
  });

  it('has five value pillars with unique ids and non-empty texts', () => {
    expect(PILLARS).toHaveLength(5);
    expect(unique(PILLARS.map((pillar) => pillar.id))).toBe(true);
    for (const pillar of PILLARS) expect([pillar.title, pillar.text, pillar.proof].every(nonEmpty), pillar.id).toBe(true);
  });

  it('opens the use cases with paying for APIs per call over x402', () => {
    expect(USE_CASES[0]?.id).toBe('paid-apis');
    expect(USE_CASES[0]?.uses).toContain('x402');
    expect(unique(USE_CASES.map((useCase) => useCase.id))).toBe(true);
    for (const useCase of USE_CASES) {
      expect(nonEmpty(useCase.title) && nonEmpty(useCase.text), useCase.id).toBe(true);
      expect(useCase.uses.length, useCase.id).toBeGreaterThan(0);
    }
  });

  it('asks exactly four questions, each with an answer', () => {
    expect(FAQ).toHaveLength(4);
    expect(unique(FAQ.map((entry) => entry.id))).toBe(true);
    expect(unique(FAQ.map((entry) => entry.question))).toBe(true);
    for (const entry of FAQ) {
      expect(entry.question.endsWith('?'), entry.id).toBe(true);
      expect(entry.answer.length, entry.id).toBeGreaterThan(0);
      expect(entry.answer.every(nonEmpty), entry.id).toBe(true);
    }
  });

  it('quotes the spec’s default spending rules in the FAQ', () => {
    const spendingRules = FAQ.find((entry) => entry.id === 'spending-rules')?.answer.join(' ') ?? '';
    expect(spendingRules).toContain('100 dollars');
    expect(spendingRules).toContain('1,000 dollars');
  });
});
