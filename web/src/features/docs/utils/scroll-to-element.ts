// Clicking an entry of the docs navigation: scroll smoothly to the element, 96 px below the
// top, and record it in the URL. history.replaceState (keeping the router's state object)
// rather than a router navigation: a navigation would make the app's scroll-on-navigate
// jump to the element at once and cut the smooth scroll short.
import { scrollTopFor } from './scroll-position';

export function scrollToElement(id: string): void {
  const element = document.getElementById(id);
  if (!element) return;
  const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  window.scrollTo({ top: scrollTopFor(element.getBoundingClientRect().top, window.scrollY), behavior: reduceMotion ? 'auto' : 'smooth' });
  window.history.replaceState(window.history.state, '', `#${encodeURIComponent(id)}`);
  // Move the keyboard and screen-reader position too, without a second (instant) scroll.
  element.focus({ preventScroll: true });
}
