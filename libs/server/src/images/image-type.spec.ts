import { describeBytes, sniffImageType } from './image-type';
import { imageTypeOf } from './image-body';

const bytes = (...b: number[]) => Uint8Array.from(b);
const text = (t: string) => new TextEncoder().encode(t);

describe(sniffImageType.name, () => {
  it('knows PNG, JPEG and WebP by their first bytes', () => {
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png');
    expect(sniffImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(sniffImageType(text('RIFF\x10\x00\x00\x00WEBPVP8 '))).toBe('image/webp');
  });

  it('takes nothing else, however it is named', () => {
    for (const other of ['GIF89a', '<svg xmlns="http://www.w3.org/2000/svg"/>', 'II*\0', 'RIFF\x10\x00\x00\x00WAVEfmt ', '', 'hello']) {
      expect(sniffImageType(text(other))).toBeNull();
    }
    // A PNG's signature cut short is not a PNG.
    expect(sniffImageType(bytes(0x89, 0x50, 0x4e, 0x47))).toBeNull();
  });

  it('names what it refuses, for the message', () => {
    expect(describeBytes(text('GIF89a'))).toBe('a GIF');
    expect(describeBytes(text('\0\0\0\x18ftypheic'))).toMatch(/HEIF or AVIF/);
    expect(describeBytes(new Uint8Array(0))).toBe('an empty body');
    expect(describeBytes(text('hello'))).toBe('not an image the server can read');
  });
});

describe(imageTypeOf.name, () => {
  it('reads the three types from a Content-Type, parameters and case aside, and image/jpg as JPEG', () => {
    expect(imageTypeOf('image/PNG')).toBe('image/png');
    expect(imageTypeOf('image/jpeg; charset=binary')).toBe('image/jpeg');
    expect(imageTypeOf('image/jpg')).toBe('image/jpeg');
    expect(imageTypeOf('image/webp')).toBe('image/webp');
    expect([imageTypeOf('image/gif'), imageTypeOf('application/octet-stream'), imageTypeOf(undefined)]).toEqual([null, null, null]);
  });
});
