// After every navigation, show the element named by the URL hash if the page has it,
// otherwise the top of the page (the browser would otherwise keep the old scroll offset).
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { findScrollTarget } from './scroll-target';

/** react-router's key of the location a visit starts on (history holds no state for it yet). */
const FIRST_LOCATION_KEY = 'default';

export function ScrollOnNavigate() {
  // `key` changes on every navigation, so following the same '#flow' link twice scrolls twice.
  const { pathname, hash, key } = useLocation();

  useEffect(() => {
    const target = findScrollTarget(hash, (id) => document.getElementById(id));
    if (target) target.scrollIntoView({ block: 'start' });
    // The first page of a visit starts where the browser put it: at the top, or further down
    // when the reader scrolled a pre-rendered page before the app took it over.
    else if (key !== FIRST_LOCATION_KEY) window.scrollTo(0, 0);
  }, [pathname, hash, key]);

  return null;
}
