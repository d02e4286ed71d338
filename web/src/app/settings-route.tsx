import { useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { PageHeader } from '../components/ui/page-header';
import { ApiKeysSettings } from '../features/api-keys/components/api-keys-settings';
import { EmailNotificationSettings } from '../features/notifications/email-notification-settings';
import { PasskeysSettings } from '../features/security/components/passkeys-settings';
import { SignedInSessions } from '../features/security/components/signed-in-sessions';
import { TwoFactorSettings } from '../features/security/components/two-factor-settings';
import { WebhooksSettings } from '../features/webhooks/components/webhooks-settings';

/**
 * /dashboard/settings: the user's own settings — which notifications also come by e-mail, the second factor of their
 * sign-ins, where they are signed in, and the API keys of their own systems. The app composes the features here (a feature imports no other), in a
 * chunk of its own.
 */
export function SettingsRoute() {
  // A link to a section (`#two-factor`, from the admin pages' notice) shows that section.
  const { hash } = useLocation();
  useEffect(() => {
    if (hash.length > 1) document.getElementById(hash.slice(1))?.scrollIntoView({ block: 'start' });
  }, [hash]);
  return (
    <div className="max-w-3xl space-y-6">
      <PageHeader title="Settings" subtitle="How Seatlink tells you what happens, and how you sign in." />
      <EmailNotificationSettings />
      <TwoFactorSettings />
      <PasskeysSettings />
      <SignedInSessions />
      <ApiKeysSettings />
      <WebhooksSettings />
    </div>
  );
}
