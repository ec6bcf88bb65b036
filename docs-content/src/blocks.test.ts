import { describe, expect, it } from 'vitest';
import { ContentError, countWords, parseBlocks } from './blocks';

const source = { file: 'blog/example.md', firstLine: 10 };

describe('parseBlocks', () => {
  it('turns headings, paragraphs and both kinds of list into blocks', () => {
    const body = [
      '## Why it matters',
      '',
      'Agents pay for APIs',
      'one request at a time.',
      '',
      '- wallets',
      '- rails',
      '',
      '1. create an intent',
      '2. attach a policy',
      '',
    ].join('\n');
    expect(parseBlocks(body, source)).toEqual([
      { type: 'heading', text: 'Why it matters' },
      { type: 'paragraph', text: 'Agents pay for APIs one request at a time.' },
      { type: 'list', items: ['wallets', 'rails'], ordered: false },
      { type: 'list', items: ['create an intent', 'attach a policy'], ordered: true },
    ]);
  });

  it('joins a wrapped list item with the item it continues', () => {
    expect(parseBlocks('- a long item\n  that wraps\n- next', source)).toEqual([
      { type: 'list', items: ['a long item that wraps', 'next'], ordered: false },
    ]);
  });

  it('accepts Windows line endings and runs of blank lines', () => {
    expect(parseBlocks('\r\n\r\n## Title\r\n\r\n\r\nText\r\n', source)).toEqual([
      { type: 'heading', text: 'Title' },
      { type: 'paragraph', text: 'Text' },
    ]);
  });

  it('refuses a code fence, naming the file and the line', () => {
    const body = 'Intro\n\n```ts\nconst a = 1;\n```';
    expect(() => parseBlocks(body, source)).toThrow(ContentError);
    expect(() => parseBlocks(body, source)).toThrow('blog/example.md:12: code fences are not allowed');
  });

  it('refuses a table', () => {
    expect(() => parseBlocks('| a | b |\n|---|---|\n| 1 | 2 |', source)).toThrow('blog/example.md:10: tables are not allowed');
  });

  it('refuses a nested list', () => {
    expect(() => parseBlocks('- outer\n  - inner', source)).toThrow('blog/example.md:11: nested lists are not allowed');
    expect(() => parseBlocks('1. outer\n   1. inner', source)).toThrow('nested lists are not allowed');
  });

  it('refuses HTML, other heading levels, quotes, images and rules', () => {
    expect(() => parseBlocks('<div>hi</div>', source)).toThrow('HTML is not allowed');
    expect(() => parseBlocks('Text with a<br>break', source)).toThrow('HTML is not allowed');
    expect(() => parseBlocks('# Title', source)).toThrow('only "## " headings are allowed');
    expect(() => parseBlocks('### Sub', source)).toThrow('only "## " headings are allowed');
    expect(() => parseBlocks('> quoted', source)).toThrow('block quotes are not allowed');
    expect(() => parseBlocks('![alt](/x.png)', source)).toThrow('images are not allowed');
    expect(() => parseBlocks('---', source)).toThrow('horizontal rules are not allowed');
  });

  it('refuses other list markers and indented blocks', () => {
    expect(() => parseBlocks('* item', source)).toThrow('bulleted lists use "- " items');
    expect(() => parseBlocks('1) item', source)).toThrow('numbered lists use "1. " items');
    expect(() => parseBlocks('    indented code', source)).toThrow('may not start indented');
  });

  it('refuses blocks that are not separated by a blank line', () => {
    expect(() => parseBlocks('## Title\nText', source)).toThrow('blog/example.md:11: a heading stands on its own line');
    expect(() => parseBlocks('Text\n- item', source)).toThrow('a list needs a blank line before it');
    expect(() => parseBlocks('- a\n1. b', source)).toThrow('a list mixes');
  });

  it('keeps inequality signs and angle brackets that are not HTML', () => {
    expect(parseBlocks('Fees < 1 cent, where <agent id> is the DID', source)).toEqual([
      { type: 'paragraph', text: 'Fees < 1 cent, where <agent id> is the DID' },
    ]);
  });
});

describe('countWords', () => {
  it('counts the words of every block, list items included', () => {
    expect(countWords(parseBlocks('## Two words\n\nThree more words — here.\n\n- one\n- 2', source))).toBe(8);
  });
});
