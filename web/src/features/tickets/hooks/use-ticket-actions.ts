import { useIsMutating, useMutation, useMutationState, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { DistributionSettings } from '../../../lib/distribution';
import type { SettingsChoice } from '../../../components/distribution/link-settings-form';
import { distribute, editLink, editLinks, recall, recallLinks } from '../ticket-actions';
import { useTicketsStore } from '../tickets.store';

const DISTRIBUTE = ['tickets', 'distribute'] as const;
const RECALL = ['tickets', 'recall'] as const;
const EDIT = ['tickets', 'edit-link'] as const;

interface DistributeVariables {
  ticketIds: readonly string[];
  settings: DistributionSettings;
}

/** Distributes tickets (a mutation, so every card of a running distribution reads 'Distributing...'). */
export function useDistributeTickets() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: DISTRIBUTE,
    mutationFn: ({ ticketIds, settings }: DistributeVariables) =>
      distribute(client, useTicketsStore.getState(), ticketIds, settings),
  }).mutateAsync;
}

const NONE: ReadonlySet<string> = new Set();

/** The tickets whose distribution runs now. */
export function useDistributingIds(): ReadonlySet<string> {
  const running = useMutationState({
    filters: { mutationKey: DISTRIBUTE, status: 'pending' },
    select: (mutation) => (mutation.state.variables as DistributeVariables | undefined)?.ticketIds ?? [],
  });
  return useMemo(() => (running.length === 0 ? NONE : new Set(running.flat())), [running]);
}

/** Recalls one ticket's link; `recalling` while it runs (the Recall button disabled and pulsing). */
export function useRecallTicket(ticketId: string) {
  const client = useQueryClient();
  const mutationKey = [...RECALL, ticketId];
  const { mutateAsync } = useMutation({
    mutationKey,
    mutationFn: () => recall(client, useTicketsStore.getState(), ticketId),
  });
  const recalling = useIsMutating({ mutationKey }) > 0;
  return { recall: () => mutateAsync(), recalling };
}

/** Edits one ticket's link (the Edit Link modal); `saving` while it runs. */
export function useEditLink(ticketId: string) {
  const client = useQueryClient();
  const mutationKey = [...EDIT, ticketId];
  const { mutateAsync } = useMutation({
    mutationKey,
    mutationFn: (settings: DistributionSettings) => editLink(client, ticketId, settings),
  });
  const saving = useIsMutating({ mutationKey }) > 0;
  return { edit: mutateAsync, saving };
}

const BULK = ['tickets', 'bulk-links'] as const;

/** Recalls or edits the links of many tickets (the bottom bar's actions); `busy` while either runs. */
export function useBulkLinks() {
  const client = useQueryClient();
  const recallMany = useMutation({
    mutationKey: BULK,
    mutationFn: (ticketIds: readonly string[]) => recallLinks(client, useTicketsStore.getState(), ticketIds),
  }).mutateAsync;
  const editMany = useMutation({
    mutationKey: BULK,
    mutationFn: ({
      ticketIds,
      settings,
      choice,
    }: {
      ticketIds: readonly string[];
      settings: DistributionSettings;
      choice: SettingsChoice;
    }) => editLinks(client, ticketIds, settings, choice),
  }).mutateAsync;
  const busy = useIsMutating({ mutationKey: BULK }) > 0;
  return { recallMany, editMany, busy };
}
