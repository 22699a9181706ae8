// The winners' list for the prize-giving ceremony (issue 37.2): an A4 portrait PDF, tier by tier,
// drawn with pdfkit and the certificates' Be Vietnam Pro (its subsets cut into runs, so that any
// Vietnamese name prints). The rows are the public list's (features/winners): a pupil named only
// with the parent's consent, no phone and no id. Each tier starts with its heading; a tier longer
// than a page carries on with its heading repeated ("(tiếp)") and the columns' heading.
import { formatDate } from '../../../../shared/format';
import { winnersMessages as m } from '../../../../shared/messages/winners';
import type { WinnerRow } from '../../../../shared/schemas/winners';
import { pdfkitDocument, runWidth, textRuns, textWidth, type Weight } from '../../certificates';
import { ceremonyWinners } from '../../winners';
import { readFromReplica } from '../../../db/replicas';
import { appError } from '../../../lib/errors';
import type { Services } from '../../../services';

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 42;
const BODY = 10;
const LINE = 13;
const PAD = 4;
const INK = '#1f2937';
const ACCENT = '#0f4c5c';
const RULE = '#cbd5e1';

interface Column {
  title: string;
  width: number;
  cell: (row: WinnerRow, index: number) => string;
}

/** Greedy word wrap of `text` within `width` points. */
function wrap(text: string, weight: Weight, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, weight, size) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  lines.push(line);
  return lines;
}

export interface WinnersPdfInput {
  /** The organiser, printed above the title. */
  organiser: string;
  season: string;
  publishedOn: string;
  unitLabel: string;
  rows: WinnerRow[];
  printedAt: Date;
}

export async function winnersPdf(input: WinnersPdfInput): Promise<Buffer> {
  const { doc, finish } = pdfkitDocument({ size: 'A4', margin: 0, info: { Title: `${m.title} – ${input.season}`, Creator: input.organiser } });

  /** One line of text with its top at `y`, each run in the subset font that has its glyphs. */
  const say = (text: string, x: number, y: number, weight: Weight, size: number, color = INK) => {
    let penX = x;
    for (const run of textRuns(text, weight)) {
      doc.font(run.font.name).fontSize(size).fillColor(color);
      doc.text(run.text, penX, y, { lineBreak: false });
      penX += runWidth(run, size);
    }
  };
  const centred = (text: string, y: number, weight: Weight, size: number, color = INK) =>
    say(text, (PAGE.width - textWidth(text, weight, size)) / 2, y, weight, size, color);

  const usable = PAGE.width - 2 * MARGIN;
  const columns: Column[] = [
    { title: 'STT', width: 30, cell: (_row, index) => String(index + 1) },
    { title: 'Họ và tên', width: 170, cell: (row) => row.name },
    { title: 'Lớp', width: 42, cell: (row) => row.class_name ?? '' },
    { title: 'Trường', width: 0, cell: (row) => row.school },
    { title: input.unitLabel, width: 95, cell: (row) => row.unit },
  ];
  columns[3]!.width = usable - columns.reduce((sum, column) => sum + column.width, 0);

  let y = 0;
  let pageNumber = 0;
  const footer = () => {
    const text = `${input.season} – ${m.title.toLocaleLowerCase('vi')} – in ngày ${formatDate(input.printedAt)} – trang ${pageNumber}`;
    say(text, MARGIN, PAGE.height - MARGIN + 12, 400, 8, '#64748b');
  };
  const newPage = () => {
    if (pageNumber > 0) footer();
    doc.addPage({ size: 'A4', margin: 0 });
    pageNumber += 1;
    y = MARGIN;
    if (pageNumber === 1) {
      centred(input.organiser.toLocaleUpperCase('vi'), y, 600, 11, ACCENT);
      y += 18;
      centred(m.pdfTitle, y, 700, 18, ACCENT);
      y += 26;
      centred(m.intro(input.season, input.publishedOn), y, 400, 10);
      y += 22;
    }
  };
  const room = (height: number) => y + height <= PAGE.height - MARGIN;
  const columnHeading = () => {
    doc.save().rect(MARGIN, y, usable, LINE + 2 * PAD).fill('#e2e8f0').restore();
    let x = MARGIN;
    for (const column of columns) {
      say(column.title, x + PAD, y + PAD, 600, BODY);
      x += column.width;
    }
    y += LINE + 2 * PAD;
  };
  const tierHeading = (tier: string, count: number, continued: boolean) => {
    say(continued ? `${tier} (tiếp)` : `${tier} (${count} giải)`, MARGIN, y, 700, 13, ACCENT);
    y += 20;
    columnHeading();
  };

  newPage();
  const tiers: { tier: string; rows: WinnerRow[] }[] = [];
  for (const row of input.rows) {
    const last = tiers.at(-1);
    if (last && last.tier === row.tier) last.rows.push(row);
    else tiers.push({ tier: row.tier, rows: [row] });
  }
  if (tiers.length === 0) say(m.none, MARGIN, y, 400, BODY);
  for (const { tier, rows } of tiers) {
    y += 8;
    // A heading never ends a page: it comes with its columns' heading and a row at least.
    if (!room(20 + 3 * (LINE + 2 * PAD))) newPage();
    tierHeading(tier, rows.length, false);
    rows.forEach((row, index) => {
      const cells = columns.map((column) => wrap(column.cell(row, index), 400, BODY, column.width - 2 * PAD));
      const height = Math.max(...cells.map((lines) => lines.length)) * LINE + 2 * PAD;
      if (!room(height)) {
        newPage();
        tierHeading(tier, rows.length, true);
      }
      let x = MARGIN;
      cells.forEach((lines, i) => {
        lines.forEach((line, n) => say(line, x + PAD, y + PAD + n * LINE, 400, BODY));
        x += columns[i]!.width;
      });
      y += height;
      doc.save().lineWidth(0.5).moveTo(MARGIN, y).lineTo(MARGIN + usable, y).stroke(RULE).restore();
    });
  }
  footer();
  return finish();
}

/**
 * GET /api/admin/results/winners.pdf: the current season's published winners for the ceremony.
 * 409 before publication. The list is the public one (no phone, no id), so unlike the .xlsx
 * exports it is not written to the audit log: a GET writes nothing.
 */
export async function ceremonyWinnersPdf(services: Pick<Services, 'db' | 'reads' | 'clock' | 'config'>): Promise<{ fileName: string; bytes: Buffer }> {
  // Right after a withdrawal the list must not have the prize back: a replica only once caught up.
  const list = await readFromReplica(services, (db) => ceremonyWinners(db), { caughtUp: true });
  if (!list) throw appError('results_not_published', m.pdfNotPublished);
  const bytes = await winnersPdf({ organiser: services.config.site.organiserName, season: list.season, publishedOn: list.publishedOn, unitLabel: list.unitLabel, rows: list.rows, printedAt: services.clock.now() });
  return { fileName: 'danh-sach-doat-giai.pdf', bytes };
}
