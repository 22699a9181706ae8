// /quan-tri/danh-muc: districts and schools, class groups and rooms, class teachers. Each part has
// its own address (links are relative to this nested route).
import { Link, Route, Switch, useRoute } from 'wouter';
import { usePageTitle } from '../../../lib/use-page-title';
import { SchoolsSection } from './schools-section';
import { ClassRoomsSection } from './class-rooms-section';
import { TeachersSection } from './teachers-section';
import { MoveSection } from './move-section';
import './catalog.css';
import { useUnitWords } from '../../../lib/site';

const parts = [
  { path: '/', label: 'Quận/Huyện và trường' },
  { path: '/lop', label: 'Nhóm lớp và lớp' },
  { path: '/giao-vien', label: 'Giáo viên các lớp' },
  { path: '/ban-do-moi', label: 'Chuyển sang bản đồ mới' },
] as const;

function PartLink({ path, label }: { path: string; label: string }) {
  const [active] = useRoute(path);
  return (
    <Link href={path} className="tab" aria-current={active ? 'page' : undefined}>
      {label}
    </Link>
  );
}

export function CatalogPage() {
  usePageTitle('Danh mục trường, lớp');
  const say = useUnitWords();
  return (
    <section className="admin-page">
      <h1>Danh mục trường, lớp</h1>
      <nav className="tabs catalog-tabs" aria-label="Phần của danh mục">
        {parts.map((part) => (
          <PartLink key={part.path} path={part.path} label={say(part.label)} />
        ))}
      </nav>
      <Switch>
        <Route path="/lop" component={ClassRoomsSection} />
        <Route path="/giao-vien" component={TeachersSection} />
        <Route path="/ban-do-moi" component={MoveSection} />
        <Route path="/" component={SchoolsSection} />
      </Switch>
    </section>
  );
}
