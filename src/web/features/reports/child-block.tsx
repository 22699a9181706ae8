// A child's block of the parent's report: the name, class and school, the link to the child's
// certificates, then what the season shows (this season's attempts, or an earlier one's result).
import type { ReactNode } from 'react';
import { Link } from '../../lib/router';

export function ChildSection({ child, children }: { child: { id: number; fullname: string; class: string; school: { name: string } }; children: ReactNode }) {
  const headingId = `report-child-${child.id}`;
  return (
    <section className="card report-child" aria-labelledby={headingId}>
      <div className="report-child-head">
        <div>
          <h2 id={headingId}>{child.fullname}</h2>
          <p className="report-child-meta">
            <span>Lớp: {child.class}</span>
            <span>Trường: {child.school.name}</span>
          </p>
        </div>
        <Link className="btn btn-outline" href={`/giay-chung-nhan/${child.id}`}>
          Chứng nhận
        </Link>
      </div>
      {children}
    </section>
  );
}
