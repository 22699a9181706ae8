// The worker thread of a tabular import (tableFile, file-reader.ts): readTable (sheets.ts) with
// the template's columns.
import type { TemplateKind } from '../../../../shared/schemas/admin';
import { serveFileRead } from './file-reader-worker';
import { readTable } from './sheets';

await serveFileRead<TemplateKind>(async (upload, template) => {
  const { rows, totalRow } = await readTable(upload, template);
  return { items: rows, done: { totalRow } };
});
