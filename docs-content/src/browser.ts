/// <reference types="vite/client" />
/**
 * The package for a browser bundle built by Vite (the web app): the pure schemas, parsers and
 * constants, and the content files as text. The index reads the same files from disk (Node only).
 * Each content set is a module of its own, so a page's chunk carries only the texts it shows; with
 * package.json `sideEffects: false`, a page that takes a constant takes none of the rest.
 */
export * from './blocks';
export * from './constants';
export * from './front-matter';
export * from './internal-links';
export * from './markdown-outline';
export * from './schemas';
export { blogPostTexts } from './browser-blog';
export { docSectionTexts } from './browser-docs';
export { legalPageTexts } from './browser-legal';
export { default as responsibleAiText } from '../responsible-ai.md?raw';
export { default as incidentLogText } from '../status/incidents.yaml?raw';
