// The one theme store of the running app, bound to localStorage and <html>.
import { useSyncExternalStore } from 'react';
import { createThemeStore, type ThemeState } from './theme-store';

function browserStorage(): Storage | undefined {
  // Merely reading window.localStorage throws when the browser blocks storage.
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

export const themeStore = createThemeStore({
  storage: browserStorage(),
  // The build also imports this file in Node, to pre-render the public pages: no document there.
  root: typeof document === 'undefined' ? undefined : document.documentElement,
});

/** The mode the build pre-renders pages in: nothing saved is known at build time. */
const PRERENDERED_MODE = 'light';

/**
 * Reads the theme. A pre-rendered page is hydrated in the mode it was rendered in (hydration
 * must draw what the build drew, or React discards the page and starts over), and switches to
 * the saved mode right after: React reads the server snapshot while hydrating and the store
 * once the page is live. A page rendered in the browser from the start reads the store at once.
 */
export function useThemeStore<T>(selector: (state: ThemeState) => T): T {
  return useSyncExternalStore(
    themeStore.subscribe,
    () => selector(themeStore.getState()),
    () => selector({ ...themeStore.getState(), mode: PRERENDERED_MODE }),
  );
}
