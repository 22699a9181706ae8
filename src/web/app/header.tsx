// Scaffold: replaced by the full header (desktop bar, off-canvas menu, user dropdown).
import { Link } from '../lib/router';

export function Header() {
  return (
    <header>
      <Link href="/">Trang chủ</Link>
    </header>
  );
}
