// PNG images with transparency for the tests of the certificates' signature and seal (issue 37):
// drawn here with sharp from SVG, as an organiser's scan cut out of its paper would be.
import sharp from 'sharp';

const png = (svg: string) => sharp(Buffer.from(svg)).png().toBuffer();

/** A blue handwritten-looking stroke on a transparent 600 x 200 px background. */
export const signaturePng = () =>
  png(
    '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><path d="M30 150 C 90 20, 140 20, 170 120 S 260 190, 300 80 S 420 20, 460 130 L 570 60" fill="none" stroke="#1b3fa0" stroke-width="9" stroke-linecap="round"/></svg>',
  );

/** A red ring with a star, on a transparent 400 x 400 px background. */
export const sealPng = () =>
  png(
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><circle cx="200" cy="200" r="180" fill="none" stroke="#d0202a" stroke-width="16" opacity="0.85"/><circle cx="200" cy="200" r="140" fill="none" stroke="#d0202a" stroke-width="5" opacity="0.85"/><path d="M200 110 L225 180 L300 180 L240 222 L262 295 L200 250 L138 295 L160 222 L100 180 L175 180 Z" fill="#d0202a" opacity="0.85"/></svg>',
  );

/** An opaque PNG (no alpha channel): refused as a signature. */
export const opaquePng = () => sharp({ create: { width: 300, height: 100, channels: 3, background: '#ffffff' } }).png().toBuffer();

/** A PNG of width x height px, small in bytes (one colour): for the pixel limit. */
export const hugePng = (width: number, height: number) => sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } }).png({ compressionLevel: 9 }).toBuffer();
