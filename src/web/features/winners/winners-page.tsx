// /danh-sach-doat-giai: the published winners of the current season, tier by tier (issue 37.2).
// Searched by school on the server (accents and case ignored), 20 rows a page. A child is named
// only with the parent's consent, otherwise "Học sinh lớp 3A, Trường …" (the server decides).
// The list's area keeps a window's height while it loads, so nothing below it jumps.
import { useState, type FormEvent } from 'react';
import { winnersMessages as m } from '../../../shared/messages/winners';
import { WINNERS_SEARCH_MAX_LENGTH, type WinnerRow, type WinnersData } from '../../../shared/schemas/winners';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { api } from '../../lib/api-client';
import { useData } from '../../lib/use-data';
import { usePageTitle } from '../../lib/use-page-title';
import './winners.css';

/** The page's rows cut into runs of one tier each (a tier may start on an earlier page). */
function byTier(rows: WinnerRow[]): { tier: string; rows: WinnerRow[] }[] {
  const groups: { tier: string; rows: WinnerRow[] }[] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if (last && last.tier === row.tier) last.rows.push(row);
    else groups.push({ tier: row.tier, rows: [row] });
  }
  return groups;
}

function WinnerItem({ row, unitLabel }: { row: WinnerRow; unitLabel: string }) {
  return (
    <li className="winner">
      <p className="winner-name">{row.name}</p>
      <dl className="winner-facts">
        {row.class_name !== null && (
          <div>
            <dt>Lớp</dt>
            <dd>{row.class_name}</dd>
          </div>
        )}
        <div>
          <dt>Trường</dt>
          <dd>{row.school}</dd>
        </div>
        <div>
          <dt>{unitLabel}</dt>
          <dd>{row.unit}</dd>
        </div>
        <div>
          <dt>Giải</dt>
          <dd>{row.prize}</dd>
        </div>
      </dl>
    </li>
  );
}

export function WinnersPage() {
  usePageTitle(m.title);
  const [typed, setTyped] = useState('');
  const [school, setSchool] = useState('');
  const [page, setPage] = useState(1);
  const key = `/winners?page=${page}${school ? `&school=${encodeURIComponent(school)}` : ''}`;
  const list = useData(key, (signal) => api.get<{ data: WinnersData }>(key, { signal }).then((response) => response.data), {
    failed: m.loadFailed,
    warn: 'Không tải được danh sách đoạt giải',
  });
  const data = list.data;

  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setSchool(typed.trim());
    setPage(1);
  };
  const pages = data?.published ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;

  return (
    <div className="container page winners-page">
      <h1>{m.title}</h1>
      {/* Reserved: a window tall until the first answer, so the footer does not rise and fall. */}
      <div className="winners-body" aria-busy={list.loading ? 'true' : undefined}>
        {list.message && !data ? (
          <div className="alert alert-error" role="alert">
            <p>{list.message}</p>
            <Button variant="outline" onClick={list.reload}>
              Thử lại
            </Button>
          </div>
        ) : !data ? (
          <p className="muted">Đang tải…</p>
        ) : !data.published ? (
          <p className="alert winners-unpublished" role="status">
            {data.message}
          </p>
        ) : (
          <>
            <p className="winners-intro">{m.intro(data.season, data.published_on)}</p>
            <p className="muted winners-privacy">{m.privacyNote}</p>
            <form className="winners-search" role="search" onSubmit={onSearch}>
              <TextField
                label={m.searchLabel}
                hint={m.searchHint}
                type="search"
                autoComplete="off"
                maxLength={WINNERS_SEARCH_MAX_LENGTH}
                value={typed}
                onChange={(event) => setTyped(event.target.value)}
                action={
                  <Button type="submit" disabled={list.loading}>
                    {m.searchButton}
                  </Button>
                }
              />
            </form>
            <p className="winners-count" aria-live="polite">
              {data.total === 0 ? (school ? m.noneFound(school) : m.none) : m.count(data.total)}
            </p>
            {byTier(data.items).map((group, index) => (
              <section key={`${group.tier}-${index}`} className="winners-tier" aria-labelledby={`tier-${index}`}>
                <h2 id={`tier-${index}`}>{group.tier}</h2>
                <ol className="winner-list">
                  {group.rows.map((row, n) => (
                    <WinnerItem key={n} row={row} unitLabel={data.unit_label} />
                  ))}
                </ol>
              </section>
            ))}
            {pages > 1 && (
              <nav className="winners-pages" aria-label="Phân trang danh sách đoạt giải">
                <Button variant="outline" disabled={page <= 1 || list.loading} onClick={() => setPage(page - 1)}>
                  Trang trước
                </Button>
                <span>
                  Trang {data.page}/{pages}
                </span>
                <Button variant="outline" disabled={page >= pages || list.loading} onClick={() => setPage(page + 1)}>
                  Trang sau
                </Button>
              </nav>
            )}
          </>
        )}
      </div>
    </div>
  );
}
