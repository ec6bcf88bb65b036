/**
 * The assistant without a model provider (the embedded default): the documentation passages
 * that best match the question, each as a link and a short quote, under a plain statement that
 * the answer comes from the documentation. No model, no account access.
 */
import { indexTerms, WHITEPAPER_PDF_LINK, type DocPassage, type DocsIndex, type ScoredPassage } from './docs-index';

/** The `model` of the offline answer's chunks. */
export const OFFLINE_MODEL = 'purser-docs';

const MAX_PASSAGES = 3;
/** A passage scoring under this share of the best one is noise next to it. */
const RELATIVE_CUTOFF = 0.35;
const EXCERPT_CHARS = 360;

export const OFFLINE_INTRO = 'I answer from the Purser documentation. This is what it says:';

export const NOTHING_FOUND =
  'I answer from the Purser documentation, and I found nothing there about that. ' +
  'I can help with creating and funding agent wallets, connecting agents to n8n, ' +
  `the [Responsible AI program](/responsible-ai), the [Security Whitepaper](${WHITEPAPER_PDF_LINK}), ` +
  'the [docs](/docs), the [Terms of Service](/terms) and the [Privacy Policy](/privacy). Try asking about one of those.';

export function answerFromDocs(index: DocsIndex, question: string): string {
  const results = index.search(question, { limit: 10 });
  const best = results[0]?.score ?? 0;
  const chosen = results.filter((result) => result.score >= best * RELATIVE_CUTOFF).slice(0, MAX_PASSAGES);
  if (chosen.length === 0) return NOTHING_FOUND;

  const parts = [OFFLINE_INTRO, ...chosen.map(quotePassage)];
  return parts.join('\n\n');
}

function quotePassage({ passage, terms }: ScoredPassage): string {
  const link = `**[${passage.title}](${passage.link})**`;
  const heading = passage.title === passage.source ? link : `${link} · ${passage.source}`;
  return `${heading}\n> ${excerpt(passage, new Set(terms))}`;
}

/**
 * A section whose heading matched is about the question: its opening says it best. Otherwise
 * the first paragraph naming a matched term, with what follows while it fits.
 */
function excerpt(passage: DocPassage, terms: ReadonlySet<string>): string {
  const names = (text: string) => [...indexTerms(text)].some((term) => terms.has(term));
  const start = names(passage.title) ? 0 : Math.max(0, passage.paragraphs.findIndex(names));
  const chosen = [passage.paragraphs[start] ?? ''];
  let length = chosen[0]?.length ?? 0;
  for (const next of passage.paragraphs.slice(start + 1)) {
    if (length + next.length > EXCERPT_CHARS) break;
    chosen.push(next);
    length += next.length;
  }
  // A sentence introducing a code block ("Over HTTP:") is left out with the code.
  const kept = chosen.flatMap((paragraph, index) => {
    if (!paragraph.endsWith(':') || chosen[index + 1]?.startsWith('- ')) return [paragraph];
    const before = /^(.*[.!?])\s+[^.!?]*:$/s.exec(paragraph)?.[1];
    return before ? [before] : index === 0 && chosen.length === 1 ? [paragraph] : [];
  });
  if (kept.length === 0) kept.push(chosen[0] ?? '');
  const lines = kept.map((paragraph, index) => (index === kept.length - 1 ? shorten(paragraph, EXCERPT_CHARS) : paragraph));
  // Paragraphs stay apart inside the quote; list items follow each other.
  return lines.reduce((quote, line) => (line.startsWith('- ') ? `${quote}\n> ${line}` : `${quote}\n>\n> ${line}`));
}

function shorten(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const cut = text.slice(0, limit);
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('; '));
  let short = sentenceEnd > limit / 2 ? cut.slice(0, sentenceEnd + 1) : `${cut.slice(0, cut.lastIndexOf(' ')).trimEnd()}…`;
  // An unclosed code span would swallow the formatting of the rest of the message.
  if ((short.match(/`/g)?.length ?? 0) % 2 === 1) short = `${short.slice(0, short.lastIndexOf('`')).trimEnd()}…`;
  return short;
}
