// Markdown documents (docs sections, legal pages) to React elements, from marked's lexer
// tokens: headings, paragraphs, lists, code blocks, tables, quotes and rules. Nothing is ever
// inserted as HTML; raw HTML blocks are shown as text. Headings get the ids
// `markdown-outline` computes, so the content's `/page#heading` links land on them.
import { outlineMarkdown } from '@purser/docs-content/browser';
import { marked, type Token, type Tokens } from 'marked';
import { createElement, type ReactNode } from 'react';
import { renderInline } from './markdown-inline';

export interface RenderMarkdownOptions {
  /** Added to each heading's level: inside a section titled by an h2, `##` becomes h3. */
  headingOffset?: number;
}

interface RenderContext {
  headingOffset: number;
  /** The id of the next heading in document order. */
  nextSlug: () => string | undefined;
}

export function renderMarkdown(markdown: string, options: RenderMarkdownOptions = {}): ReactNode[] {
  const slugs = outlineMarkdown(markdown).headings.map((heading) => heading.slug);
  let next = 0;
  const context: RenderContext = { headingOffset: options.headingOffset ?? 0, nextSlug: () => slugs[next++] };
  return renderBlocks(marked.lexer(markdown), context);
}

function renderBlocks(tokens: readonly Token[], context: RenderContext): ReactNode[] {
  return tokens.map((token, index) => renderBlock(token, context, index));
}

function renderBlock(token: Token, context: RenderContext, key: number): ReactNode {
  switch (token.type) {
    case 'heading': {
      const heading = token as Tokens.Heading;
      const level = Math.min(6, heading.depth + context.headingOffset);
      return createElement(`h${level}`, { key, id: context.nextSlug() }, renderInline(heading.tokens));
    }
    case 'paragraph':
      return <p key={key}>{renderInline((token as Tokens.Paragraph).tokens)}</p>;
    case 'text': {
      // Items of a tight list hold their text as block-level text tokens.
      const text = token as Tokens.Text;
      return <span key={key}>{renderInline(text.tokens ?? [text])}</span>;
    }
    case 'list':
      return <MarkdownList key={key} list={token as Tokens.List} context={context} />;
    case 'code':
      return <CodeBlock key={key} code={token as Tokens.Code} />;
    case 'table':
      return <MarkdownTable key={key} table={token as Tokens.Table} />;
    case 'blockquote':
      return <blockquote key={key}>{renderBlocks((token as Tokens.Blockquote).tokens, context)}</blockquote>;
    case 'hr':
      return <hr key={key} />;
    case 'html':
      // Raw HTML is shown as the characters it is made of, never interpreted.
      return <p key={key}>{(token as Tokens.HTML).text}</p>;
    default:
      // 'space' and link definitions ('def') produce nothing.
      return null;
  }
}

function MarkdownList({ list, context }: { list: Tokens.List; context: RenderContext }) {
  const items = list.items.map((item, index) => <li key={index}>{renderBlocks(item.tokens, context)}</li>);
  if (!list.ordered) return <ul>{items}</ul>;
  return <ol start={typeof list.start === 'number' && list.start !== 1 ? list.start : undefined}>{items}</ol>;
}

function CodeBlock({ code }: { code: Tokens.Code }) {
  const lang = (code.lang ?? '').trim().split(/\s+/)[0] ?? '';
  return (
    <div className="md-code">
      {lang && <span className="md-code-lang">{lang}</span>}
      {/* Focusable so keyboard users can scroll long lines sideways. */}
      <pre tabIndex={0}>
        <code className={lang ? `language-${lang}` : undefined}>{code.text}</code>
      </pre>
    </div>
  );
}

function MarkdownTable({ table }: { table: Tokens.Table }) {
  const align = (cell: Tokens.TableCell) => (cell.align ? { textAlign: cell.align } : undefined);
  return (
    // Wide tables scroll inside their box instead of widening the page; focusable for keyboards.
    <div className="md-table" tabIndex={0}>
      <table>
        <thead>
          <tr>
            {table.header.map((cell, index) => (
              <th key={index} scope="col" style={align(cell)}>
                {renderInline(cell.tokens)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {table.rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {row.map((cell, index) => (
                <td key={index} style={align(cell)}>
                  {renderInline(cell.tokens)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
