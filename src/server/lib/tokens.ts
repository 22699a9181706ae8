import { hash, randomBytes, randomInt } from 'node:crypto';

/** An opaque, unguessable token (256 bits), URL-safe. */
export const newToken = (bytes = 32) => randomBytes(bytes).toString('base64url');

/** Tokens are stored only as their SHA-256: a leaked table gives no usable token. */
export const hashToken = (token: string) => hash('sha256', token, 'hex');

/** n random decimal digits from a cryptographic source. */
export const randomDigits = (n: number) => Array.from({ length: n }, () => randomInt(0, 10)).join('');
