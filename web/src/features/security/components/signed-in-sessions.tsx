import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import type { SignedInSession } from '@seatlink/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { LoadFailed, LoadingStatus } from '../../../components/ui/load-states';
import { SettingsSection } from '../../../components/ui/settings-section';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { querySlice } from '../../../lib/query-slice';
import { endOtherSessions, endSession, getSessions } from '../api/sessions';

const SESSIONS_KEY = ['sessions'] as const;
const FETCH_FAILED = 'Failed to fetch your sessions';
const END_FAILED = 'Failed to sign that session out';

/** "Chrome 131 on Linux", "Mobile Safari 18 on iOS 18.1 (Apple iPhone)", or "Unknown device". */
export function sessionDevice(s: Pick<SignedInSession, 'browser' | 'os' | 'device'>): string {
  const what = [s.browser, s.os].filter(Boolean).join(' on ') || 'Unknown device';
  return s.device ? `${what} (${s.device})` : what;
}

/**
 * The Settings page's signed-in sessions: where and when each signed in and was last used, this one marked; "Sign
 * out" ends one at once (its pages are signed out), "Sign out everywhere else" ends every other.
 */
export function SignedInSessions() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: SESSIONS_KEY, queryFn: getSessions });
  const { data, error } = querySlice(query, FETCH_FAILED);
  const [busy, setBusy] = useState<string | null>(null);

  const run = async (key: string, call: () => Promise<{ message: string }>) => {
    setBusy(key);
    try {
      toast.success((await call()).message);
    } catch (err) {
      toast.error(errorMessage(err, END_FAILED));
    } finally {
      setBusy(null);
      void client.invalidateQueries({ queryKey: SESSIONS_KEY });
    }
  };

  let body;
  if (error) body = <LoadFailed message={error} onRetry={() => void query.refetch()} testId="sessions-error" />;
  else if (!data) body = <LoadingStatus />;
  else {
    const others = data.sessions.filter((s) => !s.current).length;
    body = (
      <>
        <ul className="mt-4 divide-y divide-slate-100" data-testid="sessions">
          {data.sessions.map((s) => (
            <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="session">
              <div className="min-w-0 text-sm">
                <div className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                  {sessionDevice(s)}
                  {s.current ? <Badge tone="green">This session</Badge> : null}
                </div>
                <div className="text-slate-500">
                  {s.ip ?? 'Unknown address'} · Signed in {formatDateTime(s.created_at)} · Last used{' '}
                  {formatDateTime(s.last_seen_at)}
                </div>
              </div>
              {s.current ? null : (
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={busy !== null}
                  aria-busy={busy === s.id}
                  aria-label={`Sign out ${sessionDevice(s)}`}
                  onClick={() => void run(s.id, () => endSession(s.id))}
                >
                  Sign out
                </Button>
              )}
            </li>
          ))}
        </ul>
        {others > 0 ? (
          <div className="mt-3 flex justify-end">
            <Button
              variant="secondary"
              disabled={busy !== null}
              aria-busy={busy === 'others'}
              onClick={() => void run('others', endOtherSessions)}
            >
              Sign out everywhere else
            </Button>
          </div>
        ) : null}
      </>
    );
  }

  return (
    <SettingsSection
      title="Signed-in sessions"
      description="Where your account is signed in. Sign out any you do not recognise, and change your password."
    >
      {body}
    </SettingsSection>
  );
}
