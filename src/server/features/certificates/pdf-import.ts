// The page of a one-page PDF written by pdfkit (a certificate with a character the shared fonts
// lack, decision 033), taken into another PDF: its objects renumbered from `first`, its page put
// under the document's page tree. pdfkit writes a classic cross-reference table and uncompressed
// dictionaries (its streams are compressed): the references are rewritten in the dictionaries
// only, never inside a stream's bytes. Its catalogue, page tree and info are left out.

export interface ImportedPage {
  objects: [number, Buffer][];
  /** The page object's new number. */
  page: number;
  /** The first number after the imported objects. */
  next: number;
}

const reference = /(\d+) 0 R/g;

export function importPdfPage(pdf: Buffer, first: number, parent: number): ImportedPage {
  const text = pdf.toString('latin1');
  const trailer = text.slice(text.lastIndexOf('trailer'));
  const number = (pattern: RegExp, within: string) => {
    const match = pattern.exec(within);
    if (!match) throw new Error(`not a PDF pdfkit wrote: no ${pattern.source}`);
    return Number(match[1]);
  };
  const root = number(/\/Root (\d+) 0 R/, trailer);
  const info = /\/Info (\d+) 0 R/.exec(trailer)?.[1];
  const xrefAt = number(/startxref\s+(\d+)/, text.slice(text.lastIndexOf('startxref')));
  const [, count] = /^xref\s+0 (\d+)\s/.exec(text.slice(xrefAt))!;
  const size = Number(count);
  const table = text.slice(text.indexOf('\n', text.indexOf(' ', xrefAt + 5)) + 1);
  const bodies = new Map<number, string>();
  for (let k = 1; k < size; k++) {
    const entry = table.slice(k * 20, k * 20 + 18);
    if (!entry.endsWith('n')) continue;
    const offset = Number(entry.slice(0, 10));
    const start = text.indexOf('\n', offset) + 1;
    bodies.set(k, text.slice(start, text.indexOf('\nendobj', start)));
  }
  const pages = number(/\/Pages (\d+) 0 R/, bodies.get(root) ?? '');
  const renumber = (dictionary: string) => dictionary.replace(reference, (_, n: string) => `${Number(n) === pages ? parent : first + Number(n) - 1} 0 R`);
  const objects: [number, Buffer][] = [];
  let page: number | undefined;
  for (const [k, body] of bodies) {
    if (k === root || k === pages || String(k) === info) continue;
    const streamAt = body.indexOf('stream\n');
    const dictionary = streamAt < 0 ? body : body.slice(0, streamAt);
    if (/\/Type \/Page\b(?!s)/.test(dictionary)) page = first + k - 1;
    objects.push([first + k - 1, Buffer.from(renumber(dictionary) + (streamAt < 0 ? '' : body.slice(streamAt)), 'latin1')]);
  }
  if (page === undefined) throw new Error('not a PDF pdfkit wrote: no page');
  return { objects, page, next: first + size - 1 };
}
