import { BLOG_DATE_RANGE, BLOG_POST_IDS, parseTextDate } from '@purser/docs-content/browser';
import { describe, expect, it } from 'vitest';
import { GRAPHIC_ICONS } from '../utils/graphic-icons';
import { blogPosts, findBlogPost } from './blog-posts';

describe('blogPosts', () => {
  it('holds exactly the posts BLOG_POST_IDS names, the KYA article included', () => {
    expect(blogPosts.map((post) => post.id).sort()).toEqual([...BLOG_POST_IDS].sort());
    expect(blogPosts).toHaveLength(11);
  });

  it('lists the newest first, all within the spec’s date range', () => {
    const times = blogPosts.map((post) => parseTextDate(post.date)!.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(Math.min(...times)).toBeGreaterThanOrEqual(parseTextDate(BLOG_DATE_RANGE.first)!.getTime());
    expect(Math.max(...times)).toBeLessThanOrEqual(parseTextDate(BLOG_DATE_RANGE.last)!.getTime());
  });

  it('gives every post a body of blocks and a graphic icon the bundle carries', () => {
    for (const post of blogPosts) {
      expect(post.content.length, post.id).toBeGreaterThan(3);
      expect(Object.keys(GRAPHIC_ICONS), post.id).toContain(post.graphic.icon);
    }
  });
});

describe('findBlogPost', () => {
  it('finds a post by id and nothing for unknown or missing ids', () => {
    expect(findBlogPost('agent-identity-kya')?.title).toMatch(/^Agent Identity and Know-Your-Agent/);
    expect(findBlogPost('no-such-post')).toBeUndefined();
    expect(findBlogPost(undefined)).toBeUndefined();
  });
});
