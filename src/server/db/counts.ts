// count(*) comes back from PostgreSQL as bigint, which node-postgres gives as a string: a row of
// counts as numbers (each far below 2^53).
export function countsOf<Key extends string>(row: Record<Key, string | number>): Record<Key, number> {
  return Object.fromEntries(Object.entries<string | number>(row).map(([key, value]) => [key, Number(value)])) as Record<Key, number>;
}
