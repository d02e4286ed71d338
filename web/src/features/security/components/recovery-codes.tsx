import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';

/** The recovery codes of a new second factor, shown this once, to be kept. */
export function RecoveryCodes({
  codes,
  replaced = false,
  onDone,
}: {
  codes: readonly string[];
  /** They replace codes the user had (an app set up beside a passkey): the old ones no longer work. */
  replaced?: boolean;
  onDone: () => void;
}) {
  return (
    <div className="mt-4 space-y-3">
      <Alert tone="warning">
        Save these recovery codes somewhere safe. Each signs you in once if you lose your phone. They are shown only
        now.{replaced ? ' Your earlier recovery codes no longer work.' : ''}
      </Alert>
      <ul className="grid max-w-md grid-cols-2 gap-2 font-mono text-sm text-slate-900" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code} className="rounded-md bg-slate-100 px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
      <Button onClick={onDone}>I have saved them</Button>
    </div>
  );
}
