import { useId, useState, type FormEvent } from 'react';
import {
  WEBHOOK_DEPRECATED_EVENT_TYPES,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_URL_MAX,
  type WebhookEventType,
  type WebhookSecretResponse,
} from '@seatlink/contracts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { ShownOnce } from '../../../components/ui/shown-once';
import { CodeChoices } from '../../../components/ui/code-choices';
import { useRequestForm } from '../../../lib/request-form';

import { FAILED } from '../webhooks.queries';

export interface EndpointFields {
  url: string;
  events: WebhookEventType[];
}

/** A new endpoint is offered every event but those kept for one version only (`ticket.synced`: see `tickets.synced`). */
const NEW_ENDPOINT_EVENTS = WEBHOOK_EVENT_TYPES.filter((e) => !WEBHOOK_DEPRECATED_EVENT_TYPES.includes(e));

/**
 * An endpoint's address and the events it is sent: a new one (every current event ticked), or one being changed
 * (`initial`).
 * `save` sends it; the form stays open with the server's message when it is refused.
 */
export function WebhookEndpointForm({
  initial,
  save,
  submitLabel,
  busyLabel,
  onCancel,
  testId,
}: {
  initial?: EndpointFields;
  save: (fields: EndpointFields) => Promise<unknown>;
  submitLabel: string;
  busyLabel: string;
  onCancel: () => void;
  testId: string;
}) {
  const id = useId();
  const [url, setUrl] = useState(initial?.url ?? '');
  const [events, setEvents] = useState<WebhookEventType[]>(initial?.events ?? NEW_ENDPOINT_EVENTS);
  const {
    loading: busy,
    error,
    submit: send,
  } = useRequestForm(async (fields: EndpointFields) => {
    await save(fields);
  }, FAILED);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (url.trim() && events.length && !busy) void send({ url: url.trim(), events });
  };
  return (
    <form onSubmit={submit} className="mt-4 max-w-xl space-y-3" data-testid={testId}>
      <FormField
        id={`${id}-url`}
        label="Endpoint URL"
        type="url"
        inputMode="url"
        autoComplete="off"
        placeholder="https://example.com/seatlink"
        required
        maxLength={WEBHOOK_URL_MAX}
        value={url}
        onChange={(e) => setUrl(e.target.value)}
      />
      <CodeChoices
        legend="Events to send"
        options={WEBHOOK_EVENT_TYPES}
        labels={WEBHOOK_EVENT_LABELS}
        chosen={events}
        onChange={setEvents}
      />
      {error ? <Alert tone="error">{error}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy || events.length === 0} aria-busy={busy}>
          {busy ? busyLabel : submitLabel}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** A signing secret just made (a new endpoint, or a rolled secret), shown this once. */
export function NewWebhookSecret({ made, onDone }: { made: WebhookSecretResponse; onDone: () => void }) {
  return (
    <ShownOnce
      warning={
        <>
          Copy this signing secret now: it is shown only once. Check the{' '}
          <code className="text-xs">{WEBHOOK_SIGNATURE_HEADER}</code> header of each delivery to{' '}
          <span className="break-all">{made.webhook.url}</span> with it.
        </>
      }
      value={made.secret}
      what="secret"
      testId="webhook-secret-new"
      valueTestId="webhook-secret"
      onDone={onDone}
    />
  );
}
