// The colour theme is light or dark. It starts from the choice saved in this browser
// (else light), and every change is applied to the page root and saved back.
// The factory takes the storage and the root element so tests can hand in plain objects.
import { createStore } from 'zustand';

export type ThemeMode = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'purser-theme';

export interface ThemeState {
  mode: ThemeMode;
  setMode: (mode: ThemeMode) => void;
  toggleMode: () => void;
}

export type ThemeStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Anything with a `dataset`, i.e. `document.documentElement` in the browser. */
export interface ThemeRoot {
  dataset: Record<string, string | undefined>;
}

/** Anything that is not exactly 'dark' (missing, old or hand-edited values) means light. */
export function parseThemeMode(value: string | null | undefined): ThemeMode {
  return value === 'dark' ? 'dark' : 'light';
}

export function createThemeStore({ storage, root }: { storage?: ThemeStorage; root?: ThemeRoot }) {
  const store = createStore<ThemeState>()((set, get) => ({
    mode: parseThemeMode(readSaved(storage)),
    setMode: (mode) => set({ mode }),
    toggleMode: () => set({ mode: get().mode === 'dark' ? 'light' : 'dark' }),
  }));

  if (root) root.dataset.theme = store.getState().mode;
  store.subscribe((state, previous) => {
    if (state.mode === previous.mode) return;
    if (root) root.dataset.theme = state.mode;
    save(storage, state.mode);
  });
  return store;
}

// Storage can throw (disabled cookies, private windows, full quota); the theme must
// still work for this visit, it just will not be remembered.
function readSaved(storage: ThemeStorage | undefined): string | null {
  try {
    return storage?.getItem(THEME_STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

function save(storage: ThemeStorage | undefined, mode: ThemeMode): void {
  try {
    storage?.setItem(THEME_STORAGE_KEY, mode);
  } catch {
    // Not remembered; see readSaved.
  }
}
