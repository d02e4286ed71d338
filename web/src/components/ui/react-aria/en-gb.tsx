import type { ReactNode } from 'react';
import { I18nProvider } from 'react-aria-components';

/**
 * React Aria's own texts, and the dates its pickers show and take, in en-GB whatever the browser's locale
 * (docs/reference.md "Limits and constants": dd/mm/yyyy, 24-hour). Each React Aria component sets it around itself, so
 * React Aria loads with the components that use it and not with the app: its start-up (reading the browser's locale
 * through Intl) was the biggest part of the app's own on a phone.
 */
export function EnGb({ children }: { children: ReactNode }) {
  return <I18nProvider locale="en-GB">{children}</I18nProvider>;
}
