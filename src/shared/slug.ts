// Slugs for addresses such as /tin-tuc/{slug}: a Vietnamese title without its diacritics
// ("Đọc sách cùng con" -> "doc-sach-cung-con"), lower case a-z and 0-9 joined by single dashes.

/** Longest slug made from a title (a suffix such as "-2" may follow). */
export const MAX_SLUG_LENGTH = 80;

export function slugify(title: string, fallback = 'bai-viet'): string {
  const plain = title
    .normalize('NFD')
    // Combining marks: the tones and the hats, breves and horns of ă â ê ô ơ ư.
    .replace(/[\u0300-\u036f]/g, '')
    // đ is a letter of its own, not d with a mark: NFD leaves it alone.
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  let slug = plain;
  if (slug.length > MAX_SLUG_LENGTH) {
    slug = slug.slice(0, MAX_SLUG_LENGTH);
    // Cut at a word's end when there is one.
    const lastDash = slug.lastIndexOf('-');
    slug = lastDash > MAX_SLUG_LENGTH / 2 ? slug.slice(0, lastDash) : slug.replace(/-+$/, '');
  }
  return slug || fallback;
}

/** `base`, or `base-2`, `base-3`... : the first that is not in `taken`. */
export function uniqueSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!used.has(candidate)) return candidate;
  }
}
