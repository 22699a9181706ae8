import { Button } from './button';
import { formatNumber } from '../../../shared/format';
import './data-table.css';

/** Previous / next for a list paged on the server, with "1-50 / 600". */
export function Pager({ page, perPage, total, onPage }: { page: number; perPage: number; total: number; onPage: (page: number) => void }) {
  const first = total === 0 ? 0 : (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);
  return (
    <nav className="admin-pager" aria-label="Phân trang">
      <Button variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Trang trước
      </Button>
      <span>
        {formatNumber(first)}–{formatNumber(last)} / {formatNumber(total)}
      </span>
      <Button variant="outline" disabled={last >= total} onClick={() => onPage(page + 1)}>
        Trang sau
      </Button>
    </nav>
  );
}
