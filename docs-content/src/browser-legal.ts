/// <reference types="vite/client" />
// legal/*.md as text, bundled by Vite: only the legal pages import it (through browser.ts).
import dpa from '../legal/dpa.md?raw';
import privacy from '../legal/privacy.md?raw';
import terms from '../legal/terms.md?raw';
import type { LegalPageId } from './schemas';

export const legalPageTexts: Readonly<Record<LegalPageId, string>> = { terms, privacy, dpa };
