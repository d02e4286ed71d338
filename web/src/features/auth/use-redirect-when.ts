import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * Goes on to `to` (in place of this page in the history) `delayMs` after `done` turns true, so the success message is
 * read first; leaving the page before then cancels it.
 */
export function useRedirectWhen(done: boolean, to: string, delayMs: number): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => void navigate(to, { replace: true }), delayMs);
    return () => window.clearTimeout(timer);
  }, [done, to, delayMs, navigate]);
}
