/**
 * Reads the content files from disk and validates them. Everything that is wrong with a file
 * is an error naming it: the tests load everything, so broken content never reaches a page.
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { z } from 'zod';
import { ContentError, parseBlocks } from './blocks';
import { BOOKING_URL, CONTACT_EMAILS, DOC_SECTION_IDS, RESPONSIBLE_AI_SLACK_CHANNEL } from './constants';
import { parseYaml, splitFrontMatter } from './front-matter';
import { outlineMarkdown, type Heading } from './markdown-outline';
import {
  blogFrontMatterSchema,
  docSectionFrontMatterSchema,
  incidentLogSchema,
  legalFrontMatterSchema,
  parseTextDate,
  responsibleAiFrontMatterSchema,
  whitepaperFrontMatterSchema,
  type Block,
  type BlogPost,
  type DocSectionFrontMatter,
  type IncidentLog,
  type LegalPageId,
} from './schemas';

/** The docs-content folder: blog/, docs/, legal/, security/, status/, responsible-ai.md. */
export const contentRoot = fileURLToPath(new URL('..', import.meta.url));

export type MarkdownPage<FrontMatter> = FrontMatter & {
  /** The markdown after the front matter. */
  body: string;
  /** The file's line number of the body's first line (for messages about the body). */
  bodyLine: number;
  headings: Heading[];
  /** Path relative to the content root, e.g. `legal/terms.md`. */
  file: string;
};

export type LegalPage = MarkdownPage<z.infer<typeof legalFrontMatterSchema>>;
export type DocSection = MarkdownPage<DocSectionFrontMatter>;
export type Whitepaper = MarkdownPage<z.infer<typeof whitepaperFrontMatterSchema>>;
export type ResponsibleAiPage = z.infer<typeof responsibleAiFrontMatterSchema> & {
  content: Block[];
  resources: { title: string; description: string; action: string; href: string }[];
  contact: { email: string; slack: string };
  file: string;
};

function validate<T>(schema: z.ZodType<T>, data: unknown, file: string, what: string): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new ContentError(`${file}: invalid ${what}: ${problems.join('; ')}`);
}

async function readContentFile(root: string, path: string): Promise<{ text: string; file: string }> {
  return { text: await readFile(join(root, path), 'utf8'), file: path };
}

async function loadMarkdownPage<T>(root: string, path: string, schema: z.ZodType<T>): Promise<MarkdownPage<T>> {
  const { text, file } = await readContentFile(root, path);
  const { data, body, bodyLine } = splitFrontMatter(text, file);
  const frontMatter = validate(schema, data, file, 'front matter');
  return { ...frontMatter, body, bodyLine, headings: outlineMarkdown(body).headings, file };
}

async function readBlogPost(root: string, name: string): Promise<BlogPost> {
  const { text, file } = await readContentFile(root, join('blog', name));
  const { data, body, bodyLine } = splitFrontMatter(text, file);
  const frontMatter = validate(blogFrontMatterSchema, data, file, 'front matter');
  if (frontMatter.id !== basename(name, '.md')) {
    throw new ContentError(`${file}: id "${frontMatter.id}" must equal the file name`);
  }
  const content = parseBlocks(body, { file, firstLine: bodyLine });
  if (content.length === 0) throw new ContentError(`${file}: the body is empty`);
  return { ...frontMatter, content };
}

/** Every post in blog/*.md, newest first (then by id). */
export async function loadBlogPosts(root: string = contentRoot): Promise<BlogPost[]> {
  const names = (await readdir(join(root, 'blog')).catch(() => [] as string[])).filter((name) => name.endsWith('.md'));
  const posts = await Promise.all(names.map((name) => readBlogPost(root, name)));
  const time = (post: BlogPost) => parseTextDate(post.date)?.getTime() ?? 0;
  return posts.sort((a, b) => time(b) - time(a) || a.id.localeCompare(b.id));
}

/** One post, or undefined for an unknown id (the page then redirects to /blog). */
export async function loadBlogPost(id: string, root: string = contentRoot): Promise<BlogPost | undefined> {
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(id)) return undefined;
  try {
    return await readBlogPost(root, `${id}.md`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

export async function loadLegalPage(id: LegalPageId, root: string = contentRoot): Promise<LegalPage> {
  const page = await loadMarkdownPage(root, join('legal', `${id}.md`), legalFrontMatterSchema);
  if (page.id !== id) throw new ContentError(`${page.file}: id "${page.id}" must equal the file name`);
  return page;
}

/** The docs sections (docs/<id>.md), in the order /docs shows them. */
export async function loadDocSections(root: string = contentRoot): Promise<DocSection[]> {
  return Promise.all(
    DOC_SECTION_IDS.map(async (id) => {
      const page = await loadMarkdownPage(root, join('docs', `${id}.md`), docSectionFrontMatterSchema);
      if (page.id !== id) throw new ContentError(`${page.file}: id "${page.id}" must equal the file name`);
      return page;
    }),
  );
}

export async function loadWhitepaper(root: string = contentRoot): Promise<Whitepaper> {
  return loadMarkdownPage(root, join('security', 'whitepaper.md'), whitepaperFrontMatterSchema);
}

/** The responsible-AI page; every resource card links to the booking page. */
export async function loadResponsibleAi(root: string = contentRoot): Promise<ResponsibleAiPage> {
  const { text, file } = await readContentFile(root, 'responsible-ai.md');
  const { data, body, bodyLine } = splitFrontMatter(text, file);
  const frontMatter = validate(responsibleAiFrontMatterSchema, data, file, 'front matter');
  return {
    ...frontMatter,
    content: parseBlocks(body, { file, firstLine: bodyLine }),
    resources: frontMatter.resources.map((resource) => ({ ...resource, href: BOOKING_URL })),
    contact: { email: CONTACT_EMAILS.responsibleAi, slack: RESPONSIBLE_AI_SLACK_CHANNEL },
    file,
  };
}

/** The status page's incident log (illustrative, newest first as written). */
export async function loadStatusIncidents(root: string = contentRoot): Promise<IncidentLog> {
  const { text, file } = await readContentFile(root, join('status', 'incidents.yaml'));
  return validate(incidentLogSchema, parseYaml(text, file), file, 'incident log');
}

