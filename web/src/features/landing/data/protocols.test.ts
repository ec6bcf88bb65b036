import { BLOG_POST_IDS, DOC_SECTION_IDS } from '@purser/docs-content/browser';
import { describe, expect, it } from 'vitest';
import { PROTOCOL_NAMES, PROTOCOL_STATUS_LABELS, PROTOCOLS } from './protocols';

describe('the protocol navigator data', () => {
  it('holds the spec’s twelve protocols in the spec’s order', () => {
    expect(PROTOCOLS.map((protocol) => protocol.name)).toEqual([
      'X402',
      'AP2',
      'A2A',
      'ACP',
      'MCP',
      'DID',
      'Solana',
      'Base',
      'EVM',
      'USDC',
      'eIDAS',
      'SD-JWT VC',
    ]);
    expect(PROTOCOLS.map((protocol) => protocol.name)).toEqual([...PROTOCOL_NAMES]);
  });

  it('gives every protocol a unique id and name usable as an element id', () => {
    expect(new Set(PROTOCOLS.map((protocol) => protocol.id)).size).toBe(12);
    expect(new Set(PROTOCOLS.map((protocol) => protocol.name)).size).toBe(12);
    for (const protocol of PROTOCOLS) expect(protocol.id).toMatch(/^[a-z0-9-]+$/);
  });

  it('says for every protocol what it is, how Purser supports it and where it stands', () => {
    for (const protocol of PROTOCOLS) {
      expect(protocol.kind.trim(), protocol.name).not.toBe('');
      expect(protocol.summary.trim().length, protocol.name).toBeGreaterThan(40);
      expect(protocol.support.trim().length, protocol.name).toBeGreaterThan(40);
      expect(Object.keys(PROTOCOL_STATUS_LABELS)).toContain(protocol.status);
    }
  });

  it('says plainly that a planned protocol is not supported yet', () => {
    const planned = PROTOCOLS.filter((protocol) => protocol.status === 'planned');
    expect(planned.map((protocol) => protocol.name)).toEqual(['AP2', 'A2A', 'ACP']);
    for (const protocol of planned) expect(protocol.support, protocol.name).toMatch(/^Not supported yet/);
  });

  it('links only to blog posts and docs sections that exist', () => {
    for (const { learnMore, name } of PROTOCOLS) {
      if (!learnMore) continue;
      const blog = /^\/blog\/(.+)$/.exec(learnMore.to);
      const docs = /^\/docs#(.+)$/.exec(learnMore.to);
      if (blog) expect(BLOG_POST_IDS, name).toContain(blog[1]);
      else if (docs) expect(DOC_SECTION_IDS, name).toContain(docs[1]);
      else throw new Error(`${name} links to ${learnMore.to}, neither a blog post nor a docs section`);
      expect(learnMore.label.trim(), name).not.toBe('');
    }
  });
});
