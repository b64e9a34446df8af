// An upload is judged by what its first bytes say it is, not by its name or its Content-Type. Only
// PNG, JPEG and WebP reach the decoder, so no other decoder (SVG, TIFF, HEIF, ...) ever reads a
// stranger's file.

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) => prefix.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** Returns `image/png`, `image/jpeg` or `image/webp` from the body's signature, or null for anything else. */
export function sniffImageType(bytes: Uint8Array): string | null {
  if (startsWith(bytes, PNG)) return 'image/png';
  if (startsWith(bytes, JPEG)) return 'image/jpeg';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

/** Says what the first bytes look like, for a refusal's message. It names the common image types. */
export function describeBytes(bytes: Uint8Array): string {
  if (bytes.length === 0) return 'an empty body';
  if (startsWith(bytes, ascii('GIF8'))) return 'a GIF';
  if (startsWith(bytes, ascii('<svg')) || startsWith(bytes, ascii('<?xml'))) return 'XML (an SVG?)';
  if (startsWith(bytes, ascii('II*\0')) || startsWith(bytes, ascii('MM\0*'))) return 'a TIFF';
  if (startsWith(bytes, ascii('ftyp'), 4)) return 'a HEIF or AVIF (iPhone photos are HEIC: export them as JPEG)';
  if (startsWith(bytes, ascii('BM'))) return 'a BMP';
  return 'not an image the server can read';
}
