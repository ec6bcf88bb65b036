// Inline markdown (text, emphasis, code, links...) from marked's tokens to React elements.
// React escapes every string it prints, so raw HTML in the source shows as text.
import type { Token, Tokens } from 'marked';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import { classifyLink, decodeEntities } from './safe-link';

export function renderInline(tokens: readonly Token[] | undefined): ReactNode[] {
  return (tokens ?? []).map((token, index) => <InlineToken key={index} token={token} />);
}

function InlineToken({ token }: { token: Token }): ReactNode {
  switch (token.type) {
    case 'text': {
      const text = token as Tokens.Text;
      return text.tokens ? renderInline(text.tokens) : decodeEntities(text.text);
    }
    case 'escape':
      return (token as Tokens.Escape).text;
    case 'strong':
      return <strong>{renderInline((token as Tokens.Strong).tokens)}</strong>;
    case 'em':
      return <em>{renderInline((token as Tokens.Em).tokens)}</em>;
    case 'del':
      return <del>{renderInline((token as Tokens.Del).tokens)}</del>;
    case 'codespan':
      return <code>{(token as Tokens.Codespan).text}</code>;
    case 'br':
      return <br />;
    case 'link':
      return <MarkdownLink token={token as Tokens.Link} />;
    case 'image':
      return <MarkdownImage token={token as Tokens.Image} />;
    case 'checkbox':
      return (token as Tokens.Checkbox).checked ? '☑ ' : '☐ ';
    case 'html':
      // Raw HTML is shown as the characters it is made of, never interpreted.
      return (token as Tokens.HTML).text;
    default:
      return 'text' in token && typeof token.text === 'string' ? token.text : null;
  }
}

function MarkdownLink({ token }: { token: Tokens.Link }) {
  const children = renderInline(token.tokens);
  const target = classifyLink(token.href);
  switch (target.kind) {
    case 'route':
      return <RouterLink to={target.to}>{children}</RouterLink>;
    case 'server':
      // Loaded from the server: the router only knows the app's pages.
      return <a href={target.href}>{children}</a>;
    case 'anchor':
      return <a href={target.href}>{children}</a>;
    case 'external':
      return target.newTab ? (
        <a href={target.href} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      ) : (
        <a href={target.href}>{children}</a>
      );
    case 'none':
      return <span>{children}</span>;
  }
}

/** Pictures from this site only (the CSP refuses other hosts); others become a link. */
function MarkdownImage({ token }: { token: Tokens.Image }) {
  const target = classifyLink(token.href);
  if (target.kind === 'route' || target.kind === 'server') {
    return <img src={target.kind === 'route' ? target.to : target.href} alt={token.text} loading="lazy" />;
  }
  if (target.kind === 'external') {
    return (
      <a href={target.href} target="_blank" rel="noopener noreferrer">
        {token.text || target.href}
      </a>
    );
  }
  return <span>{token.text}</span>;
}
