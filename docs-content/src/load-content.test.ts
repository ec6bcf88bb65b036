import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadBlogPost, loadBlogPosts } from './load-content';

const frontMatter = (id: string, extra = '') => `---
id: ${id}
title: A title
date: "Sep 12, 2025"
intro: An intro.
tags: [x402, wallets]
source: { label: Example, url: https://example.com/article }
graphic: { icon: AccountBalanceWallet, gradient: ["#4f46e5", "#06b6d4"], accent: "#f59e0b", motif: orbits }
${extra}---
`;

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'purser-content-'));
  await mkdir(join(root, 'blog'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('loadBlogPosts', () => {
  it('reads front matter and body blocks, newest first', async () => {
    await writeFile(join(root, 'blog', 'older.md'), `${frontMatter('older')}\n## Heading\n\nText.\n`);
    await writeFile(join(root, 'blog', 'newer.md'), frontMatter('newer').replace('Sep 12', 'Oct 1') + '\nText.\n');
    const posts = await loadBlogPosts(root);
    expect(posts.map((post) => post.id)).toEqual(['newer', 'older']);
    expect(posts[1]).toMatchObject({
      title: 'A title',
      date: 'Sep 12, 2025',
      source: { label: 'Example', url: 'https://example.com/article' },
      graphic: { gradient: ['#4f46e5', '#06b6d4'], motif: 'orbits' },
      content: [{ type: 'heading', text: 'Heading' }, { type: 'paragraph', text: 'Text.' }],
    });
  });

  it('refuses a post whose id differs from its file name', async () => {
    await writeFile(join(root, 'blog', 'file-name.md'), `${frontMatter('other-id')}\nText.\n`);
    await expect(loadBlogPosts(root)).rejects.toThrow('blog/file-name.md: id "other-id" must equal the file name');
  });

  it('refuses unknown front matter keys and bad values, naming each', async () => {
    await writeFile(join(root, 'blog', 'bad.md'), `${frontMatter('bad', 'author: someone\n').replace('motif: orbits', 'motif: spirals')}\nText.\n`);
    await expect(loadBlogPosts(root)).rejects.toThrow(/blog\/bad\.md: invalid front matter: .*graphic\.motif.*author|author.*graphic\.motif/);
  });

  it('refuses a source that is not https and a date that is not "Mon D, YYYY"', async () => {
    await writeFile(join(root, 'blog', 'bad.md'), `${frontMatter('bad').replace('https://', 'http://').replace('"Sep 12, 2025"', '2025-09-12')}\nText.\n`);
    await expect(loadBlogPosts(root)).rejects.toThrow(/source\.url.*date|date.*source\.url/);
  });

  it('reports body errors at the line of the file', async () => {
    await writeFile(join(root, 'blog', 'code.md'), `${frontMatter('code')}\nText.\n\n\`\`\`\ncode\n\`\`\`\n`);
    // 9 front matter lines, then a blank line, "Text.", a blank line, the fence on line 13.
    await expect(loadBlogPosts(root)).rejects.toThrow('blog/code.md:13: code fences are not allowed');
  });

  it('reports a YAML syntax error with the file name', async () => {
    await writeFile(join(root, 'blog', 'yaml.md'), '---\nid: [unclosed\n---\nText.\n');
    await expect(loadBlogPosts(root)).rejects.toThrow(/^blog\/yaml\.md:\d+: not valid YAML/);
  });
});

describe('loadBlogPost', () => {
  it('answers undefined for an unknown or malformed id, so the page can redirect', async () => {
    await writeFile(join(root, 'blog', 'known.md'), `${frontMatter('known')}\nText.\n`);
    await expect(loadBlogPost('known', root)).resolves.toMatchObject({ id: 'known' });
    await expect(loadBlogPost('unknown', root)).resolves.toBeUndefined();
    await expect(loadBlogPost('../legal/terms', root)).resolves.toBeUndefined();
  });
});
