import { useMemo } from 'react';
import { create } from 'qrcode';

/** Light modules kept around the code so scanners find its edges. */
const QUIET_ZONE = 4;

/** The dark modules of the QR code of `value`, as one SVG path on a grid of `size` modules (quiet zone included). */
function qrPath(value: string): { path: string; size: number } {
  const { modules } = create(value, { errorCorrectionLevel: 'M' });
  const size = modules.size + QUIET_ZONE * 2;
  let path = '';
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.data[row * modules.size + col]) path += `M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`;
    }
  }
  return { path, size };
}

export interface QrCodeProps {
  value: string;
  /** Rendered width and height, px. */
  size?: number;
  /** What the code holds, for assistive technology. */
  label: string;
  testId?: string;
}

/** A QR code drawn in the browser (the `qrcode` package computes the modules; plain SVG draws them). */
export function QrCode({ value, size = 224, label, testId }: QrCodeProps) {
  const { path, size: modules } = useMemo(() => qrPath(value), [value]);
  return (
    <svg
      role="img"
      aria-label={label}
      viewBox={`0 0 ${modules} ${modules}`}
      width={size}
      height={size}
      shapeRendering="crispEdges"
      className="rounded-lg bg-white"
      data-testid={testId}
      data-value={value}
    >
      <rect width={modules} height={modules} fill="#fff" />
      <path d={path} fill="#0f172a" />
    </svg>
  );
}
