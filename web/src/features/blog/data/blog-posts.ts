// The blog's articles: docs-content/blog/*.md, bundled as text and read with docs-content's
// own parsers (front matter checked by its schema, the body split into blocks). Only the
// blog's route chunks import this file, so the landing page never downloads the articles.
import { blogFrontMatterSchema, blogPostTexts, parseBlocks, parseTextDate, splitFrontMatter, type BlogPost } from '@purser/docs-content/browser';

function parsePost(file: string, text: string): BlogPost {
  const { data, body, bodyLine } = splitFrontMatter(text, file);
  const frontMatter = blogFrontMatterSchema.parse(data);
  return { ...frontMatter, content: parseBlocks(body, { file, firstLine: bodyLine }) };
}

const publishedAt = (post: BlogPost) => parseTextDate(post.date)?.getTime() ?? 0;

/** Every article, newest first (then by id), as docs-content's loader orders them. */
export const blogPosts: readonly BlogPost[] = Object.entries(blogPostTexts)
  .map(([file, text]) => parsePost(file, text))
  .sort((a, b) => publishedAt(b) - publishedAt(a) || a.id.localeCompare(b.id));

export function findBlogPost(id: string | undefined): BlogPost | undefined {
  return blogPosts.find((post) => post.id === id);
}
