import { useState, type ComponentProps } from 'react';

export interface LogoProps extends Omit<ComponentProps<'img'>, 'src' | 'alt' | 'onError'> {
  src: string | null;
  testId: string;
}

/**
 * A ticket's club logo. docs/reference.md "Tickets Overview screen": hidden if it fails to load (or there is none).
 * Decorative: the title beside it names the event.
 */
export function Logo({ src, testId, ...props }: LogoProps) {
  const [failed, setFailed] = useState(false);
  if (!src || failed) return null;
  return <img src={src} alt="" onError={() => setFailed(true)} data-testid={testId} {...props} />;
}
