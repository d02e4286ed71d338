import { useState, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../lib/toast';
import type { WebhookDelivery, WebhookDeliveryStatus, WebhookEndpoint } from '@seatlink/contracts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { LoadFailed, LoadingStatus } from '../../../components/ui/load-states';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { querySlice } from '../../../lib/query-slice';
import { listWebhookDeliveries, resendWebhookDelivery } from '../api/webhooks';
import { deliveriesKey, FAILED } from '../webhooks.queries';

const FETCH_FAILED = 'Failed to fetch the deliveries';
/** While the log is open it is read again this often, so a pending delivery turns delivered (or failed) by itself. */
const REFRESH_MS = 2_500;

const STATUS_TONES = { pending: 'amber', delivered: 'green', failed: 'red' } as const satisfies Record<
  WebhookDeliveryStatus,
  string
>;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex gap-1">
      <dt className="text-slate-500">{label}</dt>
      <dd className="text-slate-900">{children}</dd>
    </div>
  );
}

function DeliveryItem({ webhookId, delivery }: { webhookId: string; delivery: WebhookDelivery }) {
  const client = useQueryClient();
  const [busy, setBusy] = useState(false);
  const resend = async () => {
    setBusy(true);
    try {
      toast.success((await resendWebhookDelivery(webhookId, delivery.id)).message);
    } catch (err) {
      toast.error(errorMessage(err, FAILED));
    } finally {
      setBusy(false);
      void client.invalidateQueries({ queryKey: deliveriesKey(webhookId) });
    }
  };
  return (
    <li
      className="flex flex-wrap items-start justify-between gap-3 py-3"
      data-testid="webhook-delivery"
      data-status={delivery.status}
    >
      <div className="min-w-0 text-sm">
        <div className="flex flex-wrap items-center gap-2">
          <code className="font-medium break-all text-slate-900">{delivery.type}</code>
          <Badge tone={STATUS_TONES[delivery.status]} testId="webhook-delivery-status">
            {delivery.status}
          </Badge>
        </div>
        <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
          <Fact label="HTTP">
            <span data-testid="webhook-delivery-http">{delivery.last_status ?? '—'}</span>
          </Fact>
          <Fact label="Latency">{delivery.last_latency_ms === null ? '—' : `${delivery.last_latency_ms} ms`}</Fact>
          <Fact label="Attempts">{delivery.attempts}</Fact>
          <Fact label="Last try">
            {delivery.last_attempt_at ? formatDateTime(delivery.last_attempt_at) : 'Not tried yet'}
          </Fact>
          {delivery.status === 'pending' && delivery.next_attempt_at ? (
            <Fact label="Next try">{formatDateTime(delivery.next_attempt_at)}</Fact>
          ) : null}
        </dl>
        {delivery.last_error ? (
          <p className="mt-1 break-words text-red-700" data-testid="webhook-delivery-error">
            {delivery.last_error}
          </p>
        ) : null}
      </div>
      <Button
        variant="secondary"
        size="sm"
        disabled={busy}
        aria-busy={busy}
        aria-label={`Resend ${delivery.type} of ${formatDateTime(delivery.created_at)}`}
        onClick={() => void resend()}
      >
        Resend
      </Button>
    </li>
  );
}

/** An endpoint's delivery log, newest first, read again every few seconds while it is open. */
export function WebhookDeliveries({ webhook, id }: { webhook: WebhookEndpoint; id: string }) {
  const query = useQuery({
    queryKey: deliveriesKey(webhook.id),
    queryFn: () => listWebhookDeliveries(webhook.id),
    refetchInterval: REFRESH_MS,
  });
  const { data, error } = querySlice(query, FETCH_FAILED);

  let body;
  if (error)
    body = <LoadFailed message={error} onRetry={() => void query.refetch()} testId="webhook-deliveries-error" />;
  else if (!data) body = <LoadingStatus />;
  else if (!data.deliveries.length) {
    body = (
      <p className="py-3 text-sm text-slate-700" data-testid="webhook-deliveries-none">
        No deliveries yet.
      </p>
    );
  } else {
    body = (
      <ul className="divide-y divide-slate-100">
        {data.deliveries.map((delivery) => (
          <DeliveryItem key={delivery.id} webhookId={webhook.id} delivery={delivery} />
        ))}
      </ul>
    );
  }
  return (
    <div id={id} className="mt-3 rounded-lg border border-slate-200 px-3 sm:px-4" data-testid="webhook-deliveries">
      <h3 className="pt-3 text-sm font-semibold text-slate-900">
        Deliveries <span className="sr-only">to {webhook.url}</span>
      </h3>
      {body}
    </div>
  );
}
