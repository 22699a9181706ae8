// What a certificate says, from the facts of its holder. Pure: the service gathers the facts.
import { createHash } from 'node:crypto';
import type { CertificateKind } from '../../db/schema';

/** Bump when the drawing changes: every certificate is drawn again on its next request. */
export const LAYOUT_VERSION = 3;

/** An uploaded image printed on every certificate (the organiser's signature or seal). */
export interface CertificateImageRef {
  sha256: string;
  width: number;
  height: number;
}

export interface CertificateContent {
  layout: number;
  kind: CertificateKind;
  /** Shown on the verification page: what the certificate is. */
  title: string;
  organiser: string;
  contest: string;
  /** The contest's year (the seal): the year its exam opens, as in its name. */
  year: string;
  subtitle: string;
  intro: string;
  /** The holder's name as printed (a pupil or a school). */
  name: string;
  lines: string[];
  /** dd/mm/yyyy */
  date: string;
  code: string;
  verifyUrl: string;
  /** Layout 3 on (issue 37); absent on an older stored content: none printed. */
  signature?: CertificateImageRef | null;
  seal?: CertificateImageRef | null;
}

export interface CommonFacts {
  organiser: string;
  contest: string;
  year: string;
  code: string;
  verifyUrl: string;
  signature: CertificateImageRef | null;
  seal: CertificateImageRef | null;
}

export interface PupilFacts {
  fullname: string;
  className: string;
  school: string;
  book: string;
}

const bookLine = (book: string) => `Cuốn sách dự thi: “${book}”`;
const pupilLine = (pupil: PupilFacts) => `Học sinh lớp ${pupil.className} – ${pupil.school}`;

export function participationContent(common: CommonFacts, pupil: PupilFacts, date: string): CertificateContent {
  return {
    layout: LAYOUT_VERSION,
    kind: 'participation',
    title: 'Giấy chứng nhận tham gia cuộc thi',
    ...common,
    subtitle: 'Tham gia cuộc thi',
    intro: 'Chứng nhận em',
    name: pupil.fullname,
    lines: [pupilLine(pupil), `Đã hoàn thành bài thi. ${bookLine(pupil.book)}`],
    date,
  };
}

export function prizeContent(common: CommonFacts, pupil: PupilFacts, prizeName: string, date: string): CertificateContent {
  return {
    layout: LAYOUT_VERSION,
    kind: 'prize',
    title: `Giấy chứng nhận đạt ${prizeName}`,
    ...common,
    subtitle: `Đạt ${prizeName}`,
    intro: 'Chứng nhận em',
    name: pupil.fullname,
    lines: [pupilLine(pupil), `Đạt ${prizeName} cá nhân của cuộc thi. ${bookLine(pupil.book)}`],
    date,
  };
}

export function top30Content(common: CommonFacts, pupil: PupilFacts, date: string): CertificateContent {
  return {
    layout: LAYOUT_VERSION,
    kind: 'top30',
    title: 'Giấy chứng nhận học sinh tiêu biểu – TOP 30 của trường',
    ...common,
    subtitle: 'Học sinh tiêu biểu – TOP 30 của trường',
    intro: 'Chứng nhận em',
    name: pupil.fullname,
    lines: [pupilLine(pupil), `Nằm trong 30 học sinh có kết quả thi tốt nhất của ${pupil.school}`],
    date,
  };
}

export function schoolContent(common: CommonFacts, school: { name: string; address: string; participants: number }, prizeName: string, date: string): CertificateContent {
  return {
    layout: LAYOUT_VERSION,
    kind: 'school',
    title: `Giấy chứng nhận ${prizeName}`,
    ...common,
    subtitle: prizeName,
    intro: 'Chứng nhận',
    name: school.name,
    lines: [school.address, `Với ${school.participants} học sinh tham gia cuộc thi`].filter(Boolean),
    date,
  };
}

/** SHA-256 (hex) of the content: the files are drawn again when it changes. */
export function contentHash(content: CertificateContent): string {
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}
