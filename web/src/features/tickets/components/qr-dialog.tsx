import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { QrCode } from '../../../components/ui/qr-code';

/** A link's QR code, drawn in the browser, to show on a screen or print (beyond the spec). */
export function QrDialog({
  title,
  link,
  onCopy,
  onClose,
}: {
  title: string;
  link: string;
  onCopy: () => void;
  onClose: () => void;
}) {
  return (
    <Modal
      title="QR code"
      description={`Scan to open the link of ${title}.`}
      onClose={onClose}
      size="sm"
      testId="qr-dialog"
    >
      <div className="flex flex-col items-center gap-3">
        <QrCode value={link} label={`QR code of ${link}`} testId="qr-code" />
        <p className="w-full font-mono text-xs break-all text-slate-700" data-testid="qr-link">
          {link}
        </p>
        <div className="flex w-full justify-end gap-2">
          <Button variant="secondary" onClick={onCopy}>
            Copy link
          </Button>
          <Button onClick={onClose}>Close</Button>
        </div>
      </div>
    </Modal>
  );
}
