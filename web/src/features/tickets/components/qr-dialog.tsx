import { Suspense } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { lazyChunk } from '../../../lib/chunk-loader';

const QR_SIZE = 224;
/** The QR code's encoder (the `qrcode` package) is a chunk of its own, off the overview's first load. */
const QrCode = lazyChunk(
  () => import('../../../components/ui/qr-code'),
  (m) => m.QrCode,
);

/** A link's QR code, drawn in the browser, to show on a screen or print (docs/user-guide.md "Tickets Overview"). */
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
        <Suspense fallback={<div style={{ width: QR_SIZE, height: QR_SIZE }} aria-hidden="true" />}>
          <QrCode value={link} size={QR_SIZE} label={`QR code of ${link}`} testId="qr-code" />
        </Suspense>
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
