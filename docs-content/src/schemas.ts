/**
 * The shapes of the content (spec section 3: blog post, incident), as zod schemas. Front
 * matter objects are strict: a misspelt key is an error, not a field that silently vanishes.
 * Pure (no file access), so the web app can import it too.
 */
import { z } from 'zod';
import { DOC_SECTION_IDS } from './constants';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** The spec keeps dates as text, e.g. "Sep 10, 2025"; this reads one as midnight UTC. */
export function parseTextDate(text: string): Date | undefined {
  const match = /^([A-Z][a-z]{2}) (\d{1,2}), (\d{4})$/.exec(text);
  if (!match) return undefined;
  const month = MONTHS.indexOf(match[1] as (typeof MONTHS)[number]);
  const day = Number(match[2]);
  const year = Number(match[3]);
  if (month < 0) return undefined;
  const date = new Date(Date.UTC(year, month, day));
  return date.getUTCDate() === day ? date : undefined;
}

export const textDateSchema = z
  .string()
  .refine((text) => parseTextDate(text) !== undefined, 'must be a date written like "Sep 10, 2025"');

const nonBlank = z.string().trim().min(1);
const hexColor = z.string().regex(/^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a #hex colour');
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be lower-case words joined by hyphens');

export const blockSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('heading'), text: nonBlank }),
  z.object({ type: z.literal('paragraph'), text: nonBlank }),
  z.object({ type: z.literal('list'), items: z.array(nonBlank).min(1), ordered: z.boolean() }),
]);
export type Block = z.infer<typeof blockSchema>;

export const MOTIFS = ['orbits', 'grid', 'waves', 'nodes'] as const;

export const blogFrontMatterSchema = z.strictObject({
  id: slug,
  title: nonBlank,
  date: textDateSchema,
  intro: nonBlank,
  tags: z.array(nonBlank).min(1),
  source: z.strictObject({ label: nonBlank, url: z.url({ protocol: /^https$/ }) }).optional(),
  graphic: z.strictObject({
    icon: z.string().regex(/^[A-Z][A-Za-z0-9]*$/, 'must be a PascalCase Material icon name'),
    gradient: z.tuple([hexColor, hexColor]),
    accent: hexColor,
    motif: z.enum(MOTIFS),
  }),
});
export type BlogFrontMatter = z.infer<typeof blogFrontMatterSchema>;

export const blogPostSchema = blogFrontMatterSchema.extend({ content: z.array(blockSchema).min(1) });
export type BlogPost = z.infer<typeof blogPostSchema>;

export const LEGAL_PAGE_IDS = ['terms', 'privacy', 'dpa'] as const;
export type LegalPageId = (typeof LEGAL_PAGE_IDS)[number];

export const legalFrontMatterSchema = z.strictObject({
  id: z.enum(LEGAL_PAGE_IDS),
  title: nonBlank,
  updated: textDateSchema,
  summary: nonBlank,
});

export const responsibleAiFrontMatterSchema = z.strictObject({
  id: z.literal('responsible-ai'),
  title: nonBlank,
  updated: textDateSchema,
  summary: nonBlank,
  officeHours: nonBlank,
  resources: z
    .array(z.strictObject({ title: nonBlank, description: nonBlank, action: nonBlank }))
    .min(1),
});

export const docSectionFrontMatterSchema = z.strictObject({
  id: z.enum(DOC_SECTION_IDS),
  title: nonBlank,
  subtitle: nonBlank,
  /** A Material icon's name, as @mui/icons-material exports it (MenuBook, RocketLaunch, ...). */
  icon: z.string().regex(/^[A-Z][A-Za-z0-9]+$/, { error: 'icon must be a Material icon name such as MenuBook' }),
});
export type DocSectionFrontMatter = z.infer<typeof docSectionFrontMatterSchema>;

export const whitepaperFrontMatterSchema = z.strictObject({
  id: z.literal('security-whitepaper'),
  title: nonBlank,
  version: nonBlank,
  updated: textDateSchema,
  summary: nonBlank,
});

export const incidentSchema = z.strictObject({
  date: textDateSchema,
  title: nonBlank,
  impact: nonBlank,
  resolution: nonBlank,
  status: z.enum(['Resolved', 'Monitoring']),
});
export type Incident = z.infer<typeof incidentSchema>;

/** The status page's incident log is static and says so (spec section 4). */
export const incidentLogSchema = z.strictObject({
  illustrative: z.literal(true),
  note: nonBlank,
  incidents: z.array(incidentSchema).min(1),
});
export type IncidentLog = z.infer<typeof incidentLogSchema>;
