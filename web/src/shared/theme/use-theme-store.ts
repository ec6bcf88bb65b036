// The one theme store of the running app, bound to localStorage and <html>.
import { useStore } from 'zustand';
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
  root: document.documentElement,
});

export function useThemeStore<T>(selector: (state: ThemeState) => T): T {
  return useStore(themeStore, selector);
}
