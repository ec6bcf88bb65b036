// A page's entry in the document head: its title, its description and the Open Graph tags
// link previews read. React hoists these elements into <head>, both in the browser and when
// the build pre-renders the page (entry-server.tsx moves them into the HTML file's head).
import { useEffect } from 'react';
import { useLocation } from 'react-router';

export const SITE_NAME = 'Purser';

interface PageHeadProps {
  /** The document title, e.g. 'Blog · Purser'. */
  title: string;
  /** One or two sentences: what search results and link previews show under the title. */
  description: string;
  /** Open Graph type: 'article' for a blog post, else 'website'. */
  type?: 'website' | 'article';
}

export function PageHead({ title, description, type = 'website' }: PageHeadProps) {
  // The site's public address is known to the server at run time, not to the build: the URL
  // stays relative to wherever the page is served from.
  const { pathname } = useLocation();
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      <meta property="og:site_name" content={SITE_NAME} />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:type" content={type} />
      <meta property="og:url" content={pathname} />
    </>
  );
}

/**
 * Gives a page without a title of its own (the sign-in page, the console) the product's name.
 * A visit that starts on a pre-rendered page has that page's title as the document's only one,
 * and React removes it when the reader moves on; without this the tab would show the bare URL.
 */
export function DefaultTitle() {
  const { key } = useLocation();
  useEffect(() => {
    if (document.title === '') document.title = SITE_NAME;
  }, [key]);
  return null;
}
