import { useMemo } from 'react'
import QRCode from 'qrcode'

export interface QrCodeProps {
  readonly text: string
  readonly label: string
  readonly className?: string
}

/** Draws a QR code as one SVG path. It stays crisp on a projector at any size and needs no canvas and no image request. */
export function QrCode({ text, label, className }: QrCodeProps) {
  const { size, path } = useMemo(() => {
    const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' })
    let d = ''
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) if (modules.get(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`
    }
    // The code gets four modules of quiet zone on each side, as scanners expect.
    return { size: modules.size + 8, path: d }
  }, [text])
  return (
    <svg className={className} viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shapeRendering="crispEdges">
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  )
}
