import { useSyncExternalStore } from 'react';

/** What the theme switch offers: follow the system, or always light, or always dark. */
export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_CHOICES: ReadonlyArray<{ value: ThemeChoice; label: string }> = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** Where the choice is kept (theme-boot.js reads the same key before the first paint). Absent: follow the system. */
export const THEME_STORAGE_KEY = 'seatlink.theme';
const SYSTEM_DARK = '(prefers-color-scheme: dark)';

/** A stored value as a choice: anything but 'light' or 'dark' (nothing, or an old value) follows the system. */
export function parseThemeChoice(stored: string | null): ThemeChoice {
  return stored === 'light' || stored === 'dark' ? stored : 'system';
}

export function resolveTheme(choice: ThemeChoice, systemDark: boolean): Theme {
  if (choice === 'system') return systemDark ? 'dark' : 'light';
  return choice;
}

function storedChoice(): ThemeChoice {
  try {
    return parseThemeChoice(window.localStorage.getItem(THEME_STORAGE_KEY));
  } catch {
    return 'system';
  }
}

let choice: ThemeChoice = 'system';
const listeners = new Set<() => void>();

function currentTheme(): Theme {
  return resolveTheme(choice, window.matchMedia(SYSTEM_DARK).matches);
}

function apply() {
  document.documentElement.classList.toggle('dark', currentTheme() === 'dark');
  for (const listener of listeners) listener();
}

/**
 * Follows the choice and the system from now on: the system's preference changing (while the choice is 'system'),
 * and another tab choosing. Called once at start; theme-boot.js has already set the first paint's theme.
 */
export function startTheme(): void {
  choice = storedChoice();
  apply();
  window.matchMedia(SYSTEM_DARK).addEventListener('change', apply);
  window.addEventListener('storage', (event) => {
    if (event.key !== THEME_STORAGE_KEY && event.key !== null) return;
    choice = storedChoice();
    apply();
  });
}

/** Applies and remembers a choice ('system' forgets any). */
export function setThemeChoice(next: ThemeChoice): void {
  choice = next;
  try {
    if (next === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, next);
  } catch {
    // Not remembered (storage refused); it still applies to this page.
  }
  apply();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(
    subscribe,
    () => choice,
    () => 'system',
  );
}

/** The theme in effect (for what CSS cannot reach, e.g. the styles handed to a payment provider's frame). */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, currentTheme, () => 'light');
}
