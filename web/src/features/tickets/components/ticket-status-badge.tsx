import { TICKET_STATUS } from '@seatlink/contracts';
import { Badge } from '../../../components/ui/badge';
import { STATUS_LABELS, type TicketStatus } from '../ticket-filters';

const tones = {
  [TICKET_STATUS.notDistributed]: 'slate',
  [TICKET_STATUS.distributed]: 'green',
  [TICKET_STATUS.duplicate]: 'amber',
} as const;

export function TicketStatusBadge({ status }: { status: TicketStatus }) {
  return (
    <Badge tone={tones[status]} testId="ticket-status">
      {STATUS_LABELS[status]}
    </Badge>
  );
}
