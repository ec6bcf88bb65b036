// Renders security/whitepaper.md to HTML (marked) and prints it to PDF with Debian's headless
// Chromium. Usage: node scripts/build-whitepaper-pdf.mjs [output.pdf]
// (default dist/security-whitepaper.pdf). CHROMIUM_PATH overrides the browser's location.
// The web build (web/vite.config.ts) publishes both forms: renderWhitepaperMarkdown and the PDF.
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Marked } from 'marked';
import { parse } from 'yaml';

const contentRoot = fileURLToPath(new URL('..', import.meta.url));
const source = join(contentRoot, 'security', 'whitepaper.md');

function findChromium() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const found = execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
      if (found) return found;
    } catch {
      // not on PATH; try the next name
    }
  }
  throw new Error('Chromium is missing: install Debian\'s "chromium" package (apt-get install chromium) or set CHROMIUM_PATH.');
}

function splitFrontMatter(text) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const end = lines.indexOf('---', 1);
  if (lines[0] !== '---' || end < 0) throw new Error(`${source}: missing "---" front matter`);
  return { data: parse(lines.slice(1, end).join('\n')), body: lines.slice(end + 1).join('\n') };
}

const escapeHtml = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

const STYLE = `
  @page { size: A4; margin: 20mm 18mm; }
  body { font: 10.5pt/1.5 "DejaVu Sans", "Liberation Sans", Arial, sans-serif; color: #1b1f24; }
  header { border-bottom: 3px solid #4f46e5; margin-bottom: 18pt; padding-bottom: 10pt; }
  header h1 { font-size: 22pt; margin: 0 0 4pt; }
  header p { margin: 2pt 0; color: #57606a; }
  h2 { font-size: 14pt; margin: 18pt 0 6pt; color: #312e81; break-after: avoid; }
  h3 { font-size: 12pt; margin: 12pt 0 4pt; break-after: avoid; }
  p, li { orphans: 3; widows: 3; }
  code { font: 9pt "DejaVu Sans Mono", monospace; background: #f3f4f6; padding: 0 2pt; border-radius: 2pt; }
  table { border-collapse: collapse; width: 100%; margin: 8pt 0; font-size: 9.5pt; break-inside: avoid; }
  th, td { border: 1px solid #d0d7de; padding: 4pt 6pt; text-align: left; vertical-align: top; }
  th { background: #eef2ff; }
  a { color: #4338ca; text-decoration: none; }
`;

// Site-relative links (/privacy#...) mean nothing inside a PDF: keep their text, drop the link.
const markdown = new Marked({
  gfm: true,
  renderer: {
    link({ href, tokens }) {
      return href.startsWith('/') || href.startsWith('#') ? this.parser.parseInline(tokens) : false;
    },
  },
});

/** The whitepaper as a standalone markdown file: its front matter becomes a title block. */
export async function renderWhitepaperMarkdown() {
  const { data, body } = splitFrontMatter(await readFile(source, 'utf8'));
  return `# ${data.title}\n\nVersion ${data.version} - updated ${data.updated}\n\n${data.summary}\n${body}`;
}

export async function renderWhitepaperHtml() {
  const { data, body } = splitFrontMatter(await readFile(source, 'utf8'));
  const html = await markdown.parse(body);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(data.title)}</title><style>${STYLE}</style></head>
<body>
<header><h1>${escapeHtml(data.title)}</h1><p>Version ${escapeHtml(data.version)} - updated ${escapeHtml(data.updated)}</p><p>${escapeHtml(data.summary)}</p></header>
${html}
</body></html>`;
}

export async function buildWhitepaperPdf(output) {
  const chromium = findChromium();
  const work = await mkdtemp(join(tmpdir(), 'purser-whitepaper-'));
  try {
    const htmlFile = join(work, 'whitepaper.html');
    await writeFile(htmlFile, await renderWhitepaperHtml());
    await mkdir(dirname(output), { recursive: true });
    await rm(output, { force: true });
    await promisify(execFile)(
      chromium,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--no-pdf-header-footer',
        `--user-data-dir=${join(work, 'profile')}`,
        `--print-to-pdf=${output}`,
        `file://${htmlFile}`,
      ],
      { timeout: 120_000 },
    );
    const head = (await readFile(output)).subarray(0, 4).toString('latin1');
    if (head !== '%PDF') throw new Error(`Chromium did not write a PDF to ${output}`);
    return (await stat(output)).size;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const output = resolve(process.argv[2] ?? join(contentRoot, 'dist', 'security-whitepaper.pdf'));
  const size = await buildWhitepaperPdf(output);
  process.stdout.write(`wrote ${output} (${size} bytes)\n`);
}
