// The level under the province, a setting of each season (issue 36, decision 037): the
// specification's "Quận/Huyện" (the default: its texts exactly, 'Huyện là bắt buộc.') or, on the
// map of Vietnam since 1 July 2025 (no district level), "Xã/Phường". The API keeps the
// specification's names (district_id, /api/districts) and says the level (GET /api/site, the
// districts answer); every text a person reads about the unit comes from here, in the browser and
// on the server (exports, templates, error answers), for the season it describes.

export const unitLevels = ['district', 'commune'] as const;
export type UnitLevel = (typeof unitLevels)[number];
export const DEFAULT_UNIT_LEVEL: UnitLevel = 'district';

export interface UnitLabels {
  level: UnitLevel;
  /** The parents' form's label (spec: "Huyện"). */
  short: string;
  /** A column, a filter, a back-office heading: "Quận/Huyện". */
  long: string;
  /** Inside a sentence: "quận/huyện". */
  lower: string;
  /** The first word of a sentence: "Quận/huyện". */
  sentence: string;
  /** The parents' select before a choice (spec: "Chọn huyện"). */
  placeholder: string;
  /** The school select while no unit is chosen. */
  pickFirst: string;
  /** Spec section 5: 'Huyện là bắt buộc.' */
  required: string;
  /** The server's answer to an id that is not in the catalogue. */
  unknown: string;
  /** The server's answer to a school of another unit. */
  schoolNotIn: string;
  /** A report's tab or an export's sheet grouped by unit: "Theo quận, huyện". */
  byUnit: string;
  /** The back office's select before a choice: "Chọn quận/huyện". */
  choose: string;
  /** The option in Cài đặt cuộc thi, and the one sentence under it. */
  option: string;
  hint: string;
  /** A unit's name in a template's example row. */
  example: string;
}

const labels: Record<UnitLevel, UnitLabels> = {
  district: {
    level: 'district',
    short: 'Huyện',
    long: 'Quận/Huyện',
    lower: 'quận/huyện',
    sentence: 'Quận/huyện',
    placeholder: 'Chọn huyện',
    pickFirst: 'Chọn huyện trước',
    required: 'Huyện là bắt buộc.',
    unknown: 'Huyện không tồn tại.',
    schoolNotIn: 'Trường học không thuộc huyện đã chọn.',
    byUnit: 'Theo quận, huyện',
    choose: 'Chọn quận/huyện',
    option: 'Quận/Huyện',
    hint: 'Trường thuộc quận, huyện, thị xã (bản đồ hành chính trước ngày 01/07/2025).',
    example: 'Thành phố An Hoà',
  },
  commune: {
    level: 'commune',
    short: 'Xã/Phường',
    long: 'Xã/Phường',
    lower: 'xã/phường',
    sentence: 'Xã/phường',
    placeholder: 'Chọn xã/phường',
    pickFirst: 'Chọn xã/phường trước',
    required: 'Xã/Phường là bắt buộc.',
    unknown: 'Xã/Phường không tồn tại.',
    schoolNotIn: 'Trường học không thuộc xã/phường đã chọn.',
    byUnit: 'Theo xã, phường',
    choose: 'Chọn xã/phường',
    option: 'Xã/Phường',
    hint: 'Trường thuộc xã, phường, đặc khu ngay dưới tỉnh (chính quyền hai cấp từ ngày 01/07/2025).',
    example: 'Phường An Hoà',
  },
};

/** The texts of `level`; an unknown or missing level is the specification's (district). */
export function unitLevelLabels(level: UnitLevel | null | undefined): UnitLabels {
  return labels[level === 'commune' ? 'commune' : DEFAULT_UNIT_LEVEL];
}

/** The whole texts of the default level that another level says otherwise (the spec's sentences). */
const WHOLE_TEXTS = ['short', 'placeholder', 'pickFirst', 'required', 'unknown', 'schoolNotIn', 'byUnit'] as const;

/**
 * A text of ours written for the default level (every message catalogue is), said for `level`:
 * one of the specification's sentences ('Huyện là bắt buộc.') is replaced whole; elsewhere the
 * words "quận/huyện" and "quận, huyện" (any capitals) become the level's. Names never carry those
 * joined words ("Quận 1", "Huyện Đông Anh" are left alone), so a text with a name in it is safe.
 */
export function relabelUnit(text: string, level: UnitLevel | null | undefined): string {
  const to = unitLevelLabels(level);
  if (to.level === DEFAULT_UNIT_LEVEL) return text;
  const from = labels[DEFAULT_UNIT_LEVEL];
  for (const key of WHOLE_TEXTS) if (text === from[key]) return to[key];
  return text
    .replaceAll('Quận/Huyện', to.long)
    .replaceAll('Quận/huyện', to.sentence)
    .replaceAll('quận/huyện', to.lower)
    .replaceAll('Quận, huyện', to.byUnit.replace(/^Theo /, '').replace(/^./, (c) => c.toUpperCase()))
    .replaceAll('quận, huyện', to.byUnit.replace(/^Theo /, ''));
}

/** Whether `text` says anything relabelUnit would change (so the server reads the level only then). */
export function mentionsUnit(text: string): boolean {
  const from = labels[DEFAULT_UNIT_LEVEL];
  return WHOLE_TEXTS.some((key) => text === from[key]) || /quận[/,] ?huyện/iu.test(text);
}
