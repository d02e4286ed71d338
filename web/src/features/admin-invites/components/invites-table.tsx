import { useState } from 'react';
import { toast } from '../../../lib/toast';
import type { InviteCode } from '@seatlink/contracts';
import { Badge } from '../../../components/ui/badge';
import { DataTable } from '../../../components/ui/data-table';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { copyWithToast } from '../../../lib/clipboard';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useDisableInvite, useRemoveInvite } from '../use-admin-invites';
import { inviteLastDay, inviteStatus, type InviteStatus } from '../invite-codes';
import { UsageBar } from './usage-bar';

const COLUMNS = ['Code', 'Usage', 'Status', 'Expires', 'Created', 'Actions'] as const;

const statusTones = { Active: 'green', Disabled: 'slate', Expired: 'amber' } as const satisfies Record<
  InviteStatus,
  string
>;

function copyCode(code: string): Promise<void> {
  return copyWithToast(code, { copied: 'Invite code copied to clipboard', failed: 'Failed to copy code' });
}

function InviteRow({ invite }: { invite: InviteCode }) {
  const disable = useDisableInvite();
  const remove = useRemoveInvite();
  const [busy, setBusy] = useState<'disable' | 'delete' | null>(null);
  const [confirming, setConfirming] = useState<'disable' | 'delete' | null>(null);
  const status = inviteStatus(invite);
  const lastDay = inviteLastDay(invite.expires_at);

  const onDisable = async () => {
    setConfirming(null);
    setBusy('disable');
    const result = await disable(invite);
    setBusy(null);
    if (result.ok) toast.success('Invite code disabled');
    else toast.error(result.message);
  };

  const onDelete = async () => {
    setConfirming(null);
    setBusy('delete');
    const result = await remove(invite);
    // On success the row is gone, and this component with it.
    if (result.ok) toast.success('Invite code deleted');
    else {
      setBusy(null);
      toast.error(result.message);
    }
  };

  return (
    <tr data-testid="invite-row" data-code={invite.code} data-status={status}>
      <td className="px-3 py-3 whitespace-nowrap">
        <code className="rounded bg-slate-100 px-2 py-1 font-mono text-sm text-slate-900" data-testid="invite-code">
          {invite.code}
        </code>
      </td>
      <td className="px-3 py-3 whitespace-nowrap" data-label="Usage">
        <UsageBar used={invite.used} maxUses={invite.max_uses} label={`Usage of ${invite.code}`} />
      </td>
      <td className="px-3 py-3 whitespace-nowrap" data-label="Status" data-testid="invite-status">
        <Badge tone={statusTones[status]}>{status}</Badge>
      </td>
      {/* The date chosen in the form: the last day the code works. The exact instant is in the tooltip. */}
      <td
        className="px-3 py-3 whitespace-nowrap text-slate-600"
        data-label="Expires"
        data-testid="invite-expires"
        title={`Stops working at ${formatDateTime(invite.expires_at)}`}
      >
        {formatDate(lastDay, { timeZone: 'UTC' })}
      </td>
      <td
        className="px-3 py-3 whitespace-nowrap text-slate-600"
        data-label="Created"
        title={formatDateTime(invite.created_at)}
      >
        {formatDate(invite.created_at)}
      </td>
      <td className="stack-full px-3 py-2 whitespace-nowrap">
        <div className="flex flex-wrap items-center gap-2">
          <Button size="sm" variant="secondary" title="Copy the code" onClick={() => void copyCode(invite.code)}>
            Copy
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={!invite.enabled || busy !== null}
            aria-busy={busy === 'disable'}
            onClick={() => setConfirming('disable')}
          >
            Disable
          </Button>
          <Button
            size="sm"
            variant="danger"
            disabled={busy !== null}
            aria-busy={busy === 'delete'}
            onClick={() => setConfirming('delete')}
          >
            Delete
          </Button>
        </div>
        {confirming === 'disable' ? (
          <ConfirmDialog
            title="Disable this invite code?"
            message={
              <>
                <code className="font-mono font-medium text-slate-900">{invite.code}</code> will stop admitting new
                registrations. A disabled code cannot be enabled again.
              </>
            }
            confirmLabel="Disable code"
            onConfirm={() => void onDisable()}
            onCancel={() => setConfirming(null)}
          />
        ) : confirming === 'delete' ? (
          <ConfirmDialog
            title="Delete this invite code?"
            message={
              <>
                <code className="font-mono font-medium text-slate-900">{invite.code}</code> will be removed from the
                list and stop admitting new registrations. This cannot be undone.
              </>
            }
            confirmLabel="Delete code"
            onConfirm={() => void onDelete()}
            onCancel={() => setConfirming(null)}
          />
        ) : null}
      </td>
    </tr>
  );
}

export interface InvitesTableProps {
  inviteCodes: InviteCode[];
  loading: boolean;
  error: string | null;
}

/** The invite codes list (docs/reference.md "Admin screens"). */
export function InvitesTable({ inviteCodes, loading, error }: InvitesTableProps) {
  return (
    <DataTable
      columns={COLUMNS}
      rows={inviteCodes}
      loading={loading}
      error={error}
      emptyText="No invite codes"
      testIdPrefix="invites"
      renderRow={(invite) => <InviteRow key={invite.id} invite={invite} />}
    />
  );
}
