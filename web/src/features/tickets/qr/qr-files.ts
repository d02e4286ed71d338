import { toDataURL, toString } from 'qrcode';
import { qrFileName } from './qr-file-name';

/**
 * The QR dialog's downloads (docs/reference.md "Tickets Overview screen"): the link's QR code as a PNG (drawn by the
 * `qrcode` package on a canvas, big enough to print) or an SVG, saved under `seatlink-<event>-<seat>`. A chunk of its
 * own, loaded when the dialog first asks for it.
 */

/** As the dialog draws it (components/ui/qr-code.tsx): level M, a quiet zone of 4 modules, dark on white. */
const QR_OPTIONS = { errorCorrectionLevel: 'M', margin: 4, color: { dark: '#0f172aff', light: '#ffffffff' } } as const;
/** Pixels across the PNG: sharp on a printed A4 page. */
const PNG_WIDTH = 1024;

/** Saves `href` as `fileName` through the browser's download. */
function save(href: string, fileName: string): void {
  const anchor = document.createElement('a');
  anchor.href = href;
  anchor.download = fileName;
  anchor.rel = 'noopener';
  anchor.style.display = 'none';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

export interface QrTicket {
  link: string;
  event: string;
  seat?: string | null;
}

export async function downloadQrPng({ link, event, seat }: QrTicket): Promise<void> {
  const dataUrl = await toDataURL(link, { ...QR_OPTIONS, type: 'image/png', width: PNG_WIDTH });
  save(dataUrl, qrFileName(event, seat, 'png'));
}

export async function downloadQrSvg({ link, event, seat }: QrTicket): Promise<void> {
  const svg = await toString(link, { ...QR_OPTIONS, type: 'svg' });
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    save(url, qrFileName(event, seat, 'svg'));
  } finally {
    // Kept a while: the browser reads the file for the download after the click.
    window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}
