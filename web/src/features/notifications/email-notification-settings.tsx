import { useState, type FormEvent } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../lib/toast';
import {
  NOTIFICATION_EMAIL_MODE_LABELS,
  NOTIFICATION_EMAIL_MODES,
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_KINDS,
  NOTIFICATION_PREFERENCES_MESSAGES,
  type NotificationEmailMode,
  type NotificationEmailPreferences,
} from '@seatlink/contracts';
import { Button } from '../../components/ui/button';
import { LoadFailed, LoadingStatus } from '../../components/ui/load-states';
import { SelectField } from '../../components/ui/select';
import { SettingsSection } from '../../components/ui/settings-section';
import { errorMessage } from '../../lib/api-client';
import { querySlice } from '../../lib/query-slice';
import { getNotificationPreferences, setNotificationPreferences } from './api/notification-preferences';

const PREFERENCES_KEY = ['notification-preferences'] as const;
const FETCH_FAILED = 'Failed to fetch notification settings';
const SAVE_FAILED = 'Failed to save notification settings';

/**
 * The Settings page's e-mail notifications: which notifications also come by e-mail, per kind — none, at once, or in
 * a daily digest (08:00 UK time). The bell shows every notification whatever is chosen here.
 */
export function EmailNotificationSettings() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: PREFERENCES_KEY, queryFn: getNotificationPreferences });
  const { data, error } = querySlice(query, FETCH_FAILED);
  // What the user changed, over what the server has.
  const [edits, setEdits] = useState<Partial<NotificationEmailPreferences>>({});
  const [saving, setSaving] = useState(false);
  const draft: NotificationEmailPreferences | null = data ? { ...data.email, ...edits } : null;

  const changed = draft && data ? NOTIFICATION_KINDS.filter((kind) => draft[kind] !== data.email[kind]) : [];
  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!draft || changed.length === 0) return;
    setSaving(true);
    try {
      const saved = await setNotificationPreferences({
        email: Object.fromEntries(changed.map((kind) => [kind, draft[kind]])),
      });
      client.setQueryData(PREFERENCES_KEY, saved);
      setEdits({});
      toast.success(NOTIFICATION_PREFERENCES_MESSAGES.saved);
    } catch (err) {
      toast.error(errorMessage(err, SAVE_FAILED));
    } finally {
      setSaving(false);
    }
  };

  let content;
  if (error) content = <LoadFailed message={error} onRetry={() => void query.refetch()} testId="settings-error" />;
  else if (!draft) content = <LoadingStatus />;
  else {
    content = (
      <form onSubmit={(e) => void save(e)} aria-label="E-mail notifications">
        <div className="mt-4 divide-y divide-slate-100">
          {NOTIFICATION_KINDS.map((kind) => (
            <div key={kind} className="grid gap-2 py-3 sm:grid-cols-[1fr_14rem] sm:items-center">
              <SelectField
                label={NOTIFICATION_KIND_LABELS[kind]}
                containerClassName="contents sm:[&>label]:mb-0"
                value={draft[kind]}
                data-testid={`email-${kind}`}
                onChange={(e) => setEdits({ ...edits, [kind]: e.target.value as NotificationEmailMode })}
              >
                {NOTIFICATION_EMAIL_MODES.map((mode) => (
                  <option key={mode} value={mode}>
                    {NOTIFICATION_EMAIL_MODE_LABELS[mode]}
                  </option>
                ))}
              </SelectField>
            </div>
          ))}
        </div>
        <div className="mt-4 flex justify-end">
          <Button type="submit" disabled={saving || changed.length === 0} aria-busy={saving}>
            {saving ? 'Saving...' : 'Save Changes'}
          </Button>
        </div>
      </form>
    );
  }

  return (
    <SettingsSection
      title="E-mail notifications"
      description="The bell shows every notification. Choose which also come by e-mail: at once, or gathered in a daily digest at 08:00 (UK time). Every e-mail has a link to stop them."
    >
      {content}
    </SettingsSection>
  );
}
