import { Suspense, useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { Button } from '../../../components/ui/button';
import { DownloadIcon, PrinterIcon } from '../../../components/ui/icons';
import { Modal } from '../../../components/ui/modal';
import { chunkLoader, lazyChunk } from '../../../lib/chunk-loader';
import { loadChunk } from '../../../lib/lazy-route';
import { toast } from '../../../lib/toast';

const QR_SIZE = 224;
/** On paper: about 8.5 cm across, easy to scan from a printed page. */
const QR_PRINT_SIZE = 320;
/** The QR code's encoder (the `qrcode` package) is a chunk of its own, off the overview's first load. */
const QrCode = lazyChunk(
  () => import('../../../components/ui/qr-code'),
  (m) => m.QrCode,
);
/** The downloads (PNG and SVG files of the code) come with the encoder, when the dialog first asks for them. */
const qrFiles = chunkLoader(() => loadChunk(() => import('../qr/qr-files')));

export const QR_TEXTS = {
  downloadFailed: 'Failed to download the QR code',
} as const;

/**
 * What Print puts on paper: the QR code, the event and the link, and nothing else of the page. Rendered at the end of
 * the body while a print is asked for; the print style (index.css, `[data-print-sheet]`) hides every other part of the
 * page from the printer and this sheet from the screen.
 */
function PrintSheet({ title, seat, link }: { title: string; seat?: string | null; link: string }) {
  return createPortal(
    <div data-print-sheet="" data-testid="qr-print-sheet" className="p-8 text-center text-black">
      <h1 className="text-2xl font-semibold" data-testid="qr-print-event">
        {title}
      </h1>
      {seat ? (
        <p className="mt-1 text-base" data-testid="qr-print-seat">
          {seat}
        </p>
      ) : null}
      <div className="mt-6 flex justify-center">
        <Suspense fallback={null}>
          <QrCode value={link} size={QR_PRINT_SIZE} label={`QR code of ${link}`} testId="qr-print-code" />
        </Suspense>
      </div>
      <p className="mt-6 font-mono text-sm break-all" data-testid="qr-print-link">
        {link}
      </p>
    </div>,
    document.body,
  );
}

/**
 * A link's QR code, drawn in the browser, to show on a screen, download (PNG, SVG) or print (docs/user-guide.md
 * "Tickets Overview", docs/reference.md "Tickets Overview screen").
 */
export function QrDialog({
  title,
  seat,
  link,
  onCopy,
  onClose,
}: {
  /** The event (the ticket's title). */
  title: string;
  /** The seat as one line ('Section 112, Row F, Seat 7'), when the ticket has one. */
  seat?: string | null;
  link: string;
  onCopy: () => void;
  onClose: () => void;
}) {
  const [printing, setPrinting] = useState(false);
  /** Each press of Print, counted: a print asked for again while the sheet is still up prints again. */
  const [printRequest, setPrintRequest] = useState(0);
  const [saving, setSaving] = useState<'png' | 'svg' | null>(null);

  // The sheet is in the page: print it, and take it away once the browser has printed (or the print was cancelled).
  useEffect(() => {
    if (printRequest === 0) return;
    const done = () => setPrinting(false);
    window.addEventListener('afterprint', done, { once: true });
    window.print();
    return () => window.removeEventListener('afterprint', done);
  }, [printRequest]);

  const print = () => {
    setPrinting(true);
    setPrintRequest((n) => n + 1);
  };

  const download = async (kind: 'png' | 'svg') => {
    setSaving(kind);
    try {
      const files = await qrFiles();
      const ticket = { link, event: title, seat };
      await (kind === 'png' ? files.downloadQrPng(ticket) : files.downloadQrSvg(ticket));
    } catch {
      toast.error(QR_TEXTS.downloadFailed);
    } finally {
      setSaving(null);
    }
  };

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
        <div className="grid w-full grid-cols-2 gap-2" role="group" aria-label="Download the QR code">
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void download('png')}
            disabled={saving !== null}
            aria-busy={saving === 'png' || undefined}
            data-testid="qr-download-png"
          >
            <DownloadIcon className="h-4 w-4" />
            Download PNG
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void download('svg')}
            disabled={saving !== null}
            aria-busy={saving === 'svg' || undefined}
            data-testid="qr-download-svg"
          >
            <DownloadIcon className="h-4 w-4" />
            Download SVG
          </Button>
        </div>
        <div className="flex w-full flex-wrap items-center gap-2 border-t border-slate-100 pt-3">
          <Button variant="secondary" onClick={print} data-testid="qr-print">
            <PrinterIcon className="h-4 w-4" />
            Print
          </Button>
          <Button variant="secondary" onClick={onCopy}>
            Copy link
          </Button>
          <Button className="ml-auto" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
      {printing ? <PrintSheet title={title} seat={seat} link={link} /> : null}
    </Modal>
  );
}
