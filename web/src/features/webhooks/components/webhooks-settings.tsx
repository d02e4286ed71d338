import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import {
  MAX_WEBHOOKS,
  WEBHOOK_MESSAGES,
  WEBHOOK_SECRET_GRACE_CHOICES,
  WEBHOOK_SIGNATURE_HEADER,
  type WebhookEndpoint,
  type WebhookSecretResponse,
} from '@seatlink/contracts';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { LoadFailed, LoadingStatus } from '../../../components/ui/load-states';
import { SelectField } from '../../../components/ui/select';
import { SettingsSection } from '../../../components/ui/settings-section';
import { errorMessage } from '../../../lib/api-client';
import { querySlice } from '../../../lib/query-slice';
import { createWebhook, deleteWebhook, listWebhooks, rollWebhookSecret } from '../api/webhooks';
import { FAILED, WEBHOOKS_KEY } from '../webhooks.queries';
import { WebhookEndpointItem } from './webhook-endpoint';
import { NewWebhookSecret, WebhookEndpointForm } from './webhook-endpoint-form';

const FETCH_FAILED = 'Failed to fetch your webhook endpoints';

/** What the user is asked to confirm: deleting an endpoint, or rolling its secret. */
type Asking = { what: 'delete' | 'roll'; webhook: WebhookEndpoint };

/**
 * The Settings page's webhooks: endpoints of the user's own systems that Seatlink POSTs signed JSON events to. Added
 * with an address and the events to send (the signing secret shown once), listed with their state, each with a test
 * event, its delivery log (resending one), changes, turning off and on, a new secret, and deleting.
 */
export function WebhooksSettings() {
  const client = useQueryClient();
  const query = useQuery({ queryKey: WEBHOOKS_KEY, queryFn: listWebhooks });
  const { data, error } = querySlice(query, FETCH_FAILED);
  const [adding, setAdding] = useState(false);
  const [made, setMade] = useState<WebhookSecretResponse | null>(null);
  const [asking, setAsking] = useState<Asking | null>(null);
  /** How long the old secret keeps signing after a roll (seconds; 0: it stops at once). */
  const [grace, setGrace] = useState(0);
  const graceLabel = WEBHOOK_SECRET_GRACE_CHOICES.find((c) => c.seconds === grace)?.label ?? '';

  const refresh = () => void client.invalidateQueries({ queryKey: WEBHOOKS_KEY });
  const confirm = async ({ what, webhook }: Asking) => {
    setAsking(null);
    try {
      if (what === 'delete') toast.success((await deleteWebhook(webhook.id)).message);
      else {
        const rolled = await rollWebhookSecret(webhook.id, grace);
        toast.success(rolled.message);
        setMade(rolled);
      }
    } catch (err) {
      toast.error(errorMessage(err, FAILED));
    } finally {
      refresh();
    }
  };

  let body;
  if (error) body = <LoadFailed message={error} onRetry={() => void query.refetch()} testId="webhooks-error" />;
  else if (!data) body = <LoadingStatus />;
  else if (made) body = <NewWebhookSecret made={made} onDone={() => setMade(null)} />;
  else {
    const full = data.webhooks.length >= MAX_WEBHOOKS;
    body = (
      <>
        {data.webhooks.length ? (
          <ul className="mt-4 divide-y divide-slate-100" data-testid="webhooks">
            {data.webhooks.map((webhook) => (
              <WebhookEndpointItem
                key={webhook.id}
                webhook={webhook}
                onRollSecret={() => {
                  setGrace(0);
                  setAsking({ what: 'roll', webhook });
                }}
                onDelete={() => setAsking({ what: 'delete', webhook })}
              />
            ))}
          </ul>
        ) : (
          <p className="mt-4 text-sm text-slate-700" data-testid="webhooks-none">
            No webhook endpoints yet.
          </p>
        )}
        {adding ? (
          <WebhookEndpointForm
            submitLabel="Add endpoint"
            busyLabel="Adding..."
            testId="webhook-create"
            onCancel={() => setAdding(false)}
            save={async (fields) => {
              const created = await createWebhook(fields);
              setAdding(false);
              setMade(created);
              refresh();
            }}
          />
        ) : full ? (
          <p className="mt-3 text-sm text-slate-600">{WEBHOOK_MESSAGES.limit}.</p>
        ) : (
          <div className="mt-3 flex justify-end">
            <Button onClick={() => setAdding(true)}>Add an endpoint</Button>
          </div>
        )}
        {asking?.what === 'delete' ? (
          <ConfirmDialog
            title="Delete this webhook endpoint?"
            message={
              <>
                Seatlink stops sending events to <span className="break-all">{asking.webhook.url}</span> at once.
              </>
            }
            confirmLabel="Delete"
            onCancel={() => setAsking(null)}
            onConfirm={() => void confirm(asking)}
          />
        ) : null}
        {asking?.what === 'roll' ? (
          <ConfirmDialog
            title="Roll the signing secret?"
            message={
              grace === 0 ? (
                <>
                  The old secret stops signing deliveries to <span className="break-all">{asking.webhook.url}</span> at
                  once: your endpoint needs the new one, shown next, to check them.
                </>
              ) : (
                <>
                  The old secret keeps signing deliveries to <span className="break-all">{asking.webhook.url}</span>,
                  beside the new one shown next, for {graceLabel}: switch your endpoint to the new one within that time.
                </>
              )
            }
            confirmLabel="Roll secret"
            onCancel={() => setAsking(null)}
            onConfirm={() => void confirm(asking)}
          >
            <SelectField
              label="The old secret"
              containerClassName="mt-2 mb-3"
              value={grace}
              onChange={(e) => setGrace(Number(e.target.value))}
            >
              {WEBHOOK_SECRET_GRACE_CHOICES.map((choice) => (
                <option key={choice.seconds} value={choice.seconds}>
                  {choice.seconds === 0 ? 'Stops signing now' : `Keeps signing for ${choice.label}`}
                </option>
              ))}
            </SelectField>
          </ConfirmDialog>
        ) : null}
      </>
    );
  }

  return (
    <SettingsSection
      title="Webhooks"
      description={
        <>
          Seatlink POSTs signed JSON events to your endpoint as things happen; check the{' '}
          <code className="text-xs">{WEBHOOK_SIGNATURE_HEADER}</code> header of each with your signing secret.
        </>
      }
    >
      {body}
    </SettingsSection>
  );
}
