// An assistant message as markdown with GitHub's extensions (spec section 2): links, images,
// tables, task lists, footnotes. Raw HTML in a reply shows as text, never as markup.
// URLs go through react-markdown's defaultUrlTransform, which is the spec's rule word for word:
// no protocol, or http, https, irc, ircs, mailto, xmpp; any other protocol becomes ''.
// What a URL then becomes on screen:
// - '' (a refused protocol such as javascript:): the link text alone, no link;
// - a path of this site: a router link, so the conversation and the page stay as they are,
//   except a path the server serves itself (/docs/api, /api/...): a plain link the browser loads;
// - '#...' (footnotes): scrolls within the message list, the page's address is left alone;
// - anything else: an ordinary link, a new tab for the web.
// Images are drawn only from this site, which is all the Content-Security-Policy lets a page
// load (img-src 'self'); a picture elsewhere becomes a link to it.
import type { ComponentProps, MouseEvent } from 'react';
import Markdown, { type Components, type ExtraProps } from 'react-markdown';
import { Link as RouterLink } from 'react-router';
import remarkGfm from 'remark-gfm';
import { visuallyHidden } from '../../../shared/a11y/visually-hidden';
import { isServerPath } from '../../../shared/markdown/safe-link';

const remarkPlugins = [remarkGfm];

interface AssistantMarkdownProps {
  markdown: string;
  /** Makes the ids of this message's footnotes unique among the conversation's messages. */
  idPrefix: string;
}

export function AssistantMarkdown({ markdown, idPrefix }: AssistantMarkdownProps) {
  return (
    <Markdown
      remarkPlugins={remarkPlugins}
      rehypePlugins={[[prefixFootnoteLabel, idPrefix]]}
      remarkRehypeOptions={{ clobberPrefix: idPrefix, footnoteLabelTagName: 'h3' }}
      components={components}
    >
      {markdown}
    </Markdown>
  );
}

/** A URL that names a scheme ('https:', 'mailto:') or another host ('//host'): not this site's. */
function isForeign(url: string): boolean {
  return /^[a-z][a-z\d+.-]*:/i.test(url) || url.startsWith('//');
}

function MarkdownLink({ node: _node, href, children, ...rest }: ComponentProps<'a'> & ExtraProps) {
  if (!href) return <span>{children}</span>;
  if (href.startsWith('#')) {
    return (
      <a href={href} {...rest} onClick={(event) => scrollToTarget(event, href.slice(1))}>
        {children}
      </a>
    );
  }
  if (isServerPath(href)) {
    return (
      <a href={href} {...rest}>
        {children}
      </a>
    );
  }
  if (!isForeign(href)) {
    return (
      <RouterLink to={href} {...rest}>
        {children}
      </RouterLink>
    );
  }
  if (/^(https?:)?\/\//i.test(href)) {
    return (
      <a href={href} target="_blank" rel="noopener noreferrer" {...rest}>
        {children}
        <span style={visuallyHidden}> (opens in a new tab)</span>
      </a>
    );
  }
  return (
    <a href={href} {...rest}>
      {children}
    </a>
  );
}

/** Footnote links stay inside the panel: following one must not change the page's address. */
function scrollToTarget(event: MouseEvent<HTMLAnchorElement>, id: string) {
  const target = document.getElementById(decodeURIComponent(id));
  if (!target) return;
  event.preventDefault();
  target.scrollIntoView({ block: 'nearest' });
}

function MarkdownImage({ node: _node, src, alt, ...rest }: ComponentProps<'img'> & ExtraProps) {
  if (typeof src !== 'string' || !src) return <span>{alt}</span>;
  if (isForeign(src)) {
    return (
      <a href={src} target="_blank" rel="noopener noreferrer">
        {alt || src}
        <span style={visuallyHidden}> (image, opens in a new tab)</span>
      </a>
    );
  }
  return <img src={src} alt={alt ?? ''} loading="lazy" {...rest} />;
}

/** A wide table scrolls sideways in its own box, reachable with the keyboard. */
function MarkdownTable({ node: _node, ...rest }: ComponentProps<'table'> & ExtraProps) {
  return (
    <div className="table-scroll" role="region" aria-label="Table" tabIndex={0}>
      <table {...rest} />
    </div>
  );
}

/** Task list boxes show the state; they are not controls, and say which state they show. */
function MarkdownInput({ node: _node, ...rest }: ComponentProps<'input'> & ExtraProps) {
  if (rest.type !== 'checkbox') return <input {...rest} />;
  return <input {...rest} readOnly aria-label={rest.checked ? 'Done' : 'Not done'} />;
}

const components: Components = { a: MarkdownLink, img: MarkdownImage, table: MarkdownTable, input: MarkdownInput };

interface HastNode {
  type: string;
  properties?: Record<string, unknown>;
  children?: HastNode[];
}

/**
 * clobberPrefix makes footnote ids unique per message, except the 'Footnotes' heading's id
 * ('footnote-label') and the references' aria-describedby pointing at it: prefixed here too,
 * so two messages with footnotes do not share an id.
 */
function prefixFootnoteLabel(prefix: string) {
  const label = 'footnote-label';
  const visit = (node: HastNode) => {
    const properties = node.properties;
    if (properties) {
      if (properties.id === label) properties.id = prefix + label;
      const describedBy = properties.ariaDescribedBy;
      if (Array.isArray(describedBy)) properties.ariaDescribedBy = describedBy.map((id) => (id === label ? prefix + label : id));
    }
    node.children?.forEach(visit);
  };
  return (tree: HastNode) => visit(tree);
}
