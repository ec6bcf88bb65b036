import { describe, expect, it } from 'vitest';
import { responsibleAi } from '../data/responsible-ai-content';
import { groupByHeading } from './group-by-heading';

describe('groupByHeading', () => {
  it('splits blocks at each heading, with GitHub-style ids', () => {
    const groups = groupByHeading([
      { type: 'paragraph', text: 'Before any heading.' },
      { type: 'heading', text: 'Safety' },
      { type: 'paragraph', text: 'Limits are enforced.' },
      { type: 'list', items: ['One', 'Two'], ordered: false },
      { type: 'heading', text: 'Contact and office hours' },
    ]);
    expect(groups).toEqual([
      { heading: 'Safety', id: 'safety', blocks: [{ type: 'paragraph', text: 'Limits are enforced.' }, { type: 'list', items: ['One', 'Two'], ordered: false }] },
      { heading: 'Contact and office hours', id: 'contact-and-office-hours', blocks: [] },
    ]);
  });
});

describe('responsibleAi', () => {
  it('has the principles, safety, privacy and operations parts and the contact', () => {
    expect(groupByHeading(responsibleAi.content).map((group) => group.heading)).toEqual([
      'Principles',
      'Safety',
      'Privacy',
      'Operations',
      'Contact and office hours',
    ]);
  });

  it('links every resource to the booking page and names the office hours', () => {
    expect(responsibleAi.resources.map((resource) => resource.action)).toEqual(['Request a copy', 'Schedule a workshop', 'Request a workshop']);
    expect(new Set(responsibleAi.resources.map((resource) => resource.href))).toEqual(new Set(['https://booking.purser.example/intro-call']));
    expect(responsibleAi.officeHours).toBe('Wednesdays 16:00-18:00 UTC');
  });
});
