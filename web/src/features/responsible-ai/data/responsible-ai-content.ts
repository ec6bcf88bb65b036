// The responsible-AI page's content: docs-content/responsible-ai.md, bundled as text. As the
// docs-content loader does, every resource links to the booking page and the contact comes
// from the shared constants. Only this route's chunk imports this file.
import {
  BOOKING_URL,
  CONTACT_EMAILS,
  parseBlocks,
  RESPONSIBLE_AI_SLACK_CHANNEL,
  responsibleAiFrontMatterSchema,
  responsibleAiText,
  splitFrontMatter,
  type Block,
} from '@purser/docs-content/browser';

export interface ResponsibleAiContent {
  title: string;
  updated: string;
  summary: string;
  officeHours: string;
  content: Block[];
  resources: { title: string; description: string; action: string; href: string }[];
  contact: { email: string; slack: string };
}

function load(): ResponsibleAiContent {
  const file = 'responsible-ai.md';
  const { data, body, bodyLine } = splitFrontMatter(responsibleAiText, file);
  const frontMatter = responsibleAiFrontMatterSchema.parse(data);
  return {
    title: frontMatter.title,
    updated: frontMatter.updated,
    summary: frontMatter.summary,
    officeHours: frontMatter.officeHours,
    content: parseBlocks(body, { file, firstLine: bodyLine }),
    resources: frontMatter.resources.map((resource) => ({ ...resource, href: BOOKING_URL })),
    contact: { email: CONTACT_EMAILS.responsibleAi, slack: RESPONSIBLE_AI_SLACK_CHANNEL },
  };
}

export const responsibleAi: ResponsibleAiContent = load();
