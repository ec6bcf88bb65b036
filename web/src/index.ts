// @purser/web's front door for other workspaces (the app itself starts at main.tsx): the words
// the landing page shows, so the end-to-end tests check the page against the same source.
export { FAQ } from './features/landing/data/faq';
export { PROTOCOLS, type Protocol } from './features/landing/data/protocols';
