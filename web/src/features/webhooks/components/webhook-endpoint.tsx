import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import type { WebhookEndpoint } from '@seatlink/contracts';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { sendWebhookTest, updateWebhook } from '../api/webhooks';
import { deliveriesKey, FAILED, WEBHOOKS_KEY } from '../webhooks.queries';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookEndpointForm } from './webhook-endpoint-form';

/**
 * One endpoint: its address, events, secret prefix and state, its actions (a test event, its delivery log, changing
 * it, turning it off and on; rolling the secret and deleting, asked first by the section) and, opened, its log.
 */
export function WebhookEndpointItem({
  webhook,
  onRollSecret,
  onDelete,
}: {
  webhook: WebhookEndpoint;
  onRollSecret: () => void;
  onDelete: () => void;
}) {
  const client = useQueryClient();
  const deliveriesId = useId();
  const [editing, setEditing] = useState(false);
  const [showDeliveries, setShowDeliveries] = useState(false);
  const [busy, setBusy] = useState<'toggle' | 'test' | null>(null);
  const { url } = webhook;

  const act = async (which: 'toggle' | 'test', call: () => Promise<{ message: string }>) => {
    setBusy(which);
    try {
      toast.success((await call()).message);
    } catch (err) {
      toast.error(errorMessage(err, FAILED));
    } finally {
      setBusy(null);
      void client.invalidateQueries({ queryKey: which === 'test' ? deliveriesKey(webhook.id) : WEBHOOKS_KEY });
    }
  };

  if (editing) {
    return (
      <li className="py-3" data-testid="webhook">
        <h3 className="text-sm font-semibold text-slate-900">
          Change <span className="break-all">{url}</span>
        </h3>
        <WebhookEndpointForm
          initial={{ url, events: webhook.events }}
          submitLabel="Save changes"
          busyLabel="Saving..."
          testId="webhook-edit"
          onCancel={() => setEditing(false)}
          save={async (fields) => {
            toast.success((await updateWebhook(webhook.id, fields)).message);
            setEditing(false);
            void client.invalidateQueries({ queryKey: WEBHOOKS_KEY });
          }}
        />
      </li>
    );
  }

  return (
    <li className="py-4" data-testid="webhook" data-enabled={webhook.enabled}>
      <div className="min-w-0 text-sm">
        <div className="flex flex-wrap items-center gap-2">
          <span className="min-w-0 font-medium break-all text-slate-900" data-testid="webhook-url">
            {url}
          </span>
          {webhook.enabled ? (
            <Badge tone="green" testId="webhook-state">
              Enabled
            </Badge>
          ) : (
            <Badge tone={webhook.disabled_reason ? 'amber' : 'slate'} testId="webhook-state">
              Disabled
            </Badge>
          )}
        </div>
        <div className="mt-1 flex flex-wrap gap-1">
          <span className="sr-only">Events:</span>
          {webhook.events.map((type) => (
            <Badge key={type} tone="slate">
              {type}
            </Badge>
          ))}
        </div>
        <div className="mt-1 text-slate-500">
          Secret <code className="text-xs">{webhook.secret_prefix}…</code> · Added {formatDateTime(webhook.created_at)}
        </div>
        {webhook.previous_secret_until ? (
          <div className="mt-1 text-slate-500" data-testid="webhook-grace">
            The old secret signs too until {formatDateTime(webhook.previous_secret_until)}
          </div>
        ) : null}
      </div>
      {!webhook.enabled && webhook.disabled_reason ? (
        <Alert tone="warning" className="mt-2" data-testid="webhook-disabled-reason">
          {webhook.disabled_reason}
        </Alert>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          variant="secondary"
          size="sm"
          disabled={busy === 'test'}
          aria-busy={busy === 'test'}
          aria-label={`Send a test event to ${url}`}
          onClick={() => void act('test', () => sendWebhookTest(webhook.id))}
        >
          Send a test event
        </Button>
        <Button
          variant="secondary"
          size="sm"
          aria-expanded={showDeliveries}
          aria-controls={showDeliveries ? deliveriesId : undefined}
          aria-label={`Deliveries to ${url}`}
          onClick={() => setShowDeliveries((open) => !open)}
        >
          Deliveries
        </Button>
        <Button variant="secondary" size="sm" aria-label={`Edit ${url}`} onClick={() => setEditing(true)}>
          Edit
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={busy === 'toggle'}
          aria-busy={busy === 'toggle'}
          aria-label={`${webhook.enabled ? 'Disable' : 'Enable'} ${url}`}
          onClick={() => void act('toggle', () => updateWebhook(webhook.id, { enabled: !webhook.enabled }))}
        >
          {webhook.enabled ? 'Disable' : 'Enable'}
        </Button>
        <Button variant="secondary" size="sm" aria-label={`Roll secret of ${url}`} onClick={onRollSecret}>
          Roll secret
        </Button>
        <Button variant="secondary" size="sm" aria-label={`Delete ${url}`} onClick={onDelete}>
          Delete
        </Button>
      </div>
      {showDeliveries ? <WebhookDeliveries webhook={webhook} id={deliveriesId} /> : null}
    </li>
  );
}
