// A browser's User-Agent as people name it ("Chrome trên Android"), for the list of sessions: an
// organiser must tell the office computer from a phone at a glance, not read a 150-character string.

const BROWSERS: [RegExp, string][] = [
  [/coc_coc_browser/i, 'Cốc Cốc'],
  [/Zalo/i, 'Zalo'],
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/(OPR|Opera)\//, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/(Firefox|FxiOS)\//, 'Firefox'],
  [/(Chrome|CriOS|Chromium)\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/Android/i, 'Android'],
  [/iPhone|iPod/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

const first = (table: [RegExp, string][], text: string) => table.find(([pattern]) => pattern.test(text))?.[1];

/** "Chrome trên Android", "Safari trên iPhone"; the raw text when nothing is recognised; a dash for none. */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return 'Không rõ';
  const browser = first(BROWSERS, userAgent);
  const system = first(SYSTEMS, userAgent);
  if (browser && system) return `${browser} trên ${system}`;
  return browser ?? system ?? userAgent.slice(0, 60);
}
