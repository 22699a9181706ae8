// /quan-tri/cuoc-thi: the contest's settings (dates, exam limits), its prizes and the site's
// footer. Each card saves on its own; the server checks the whole set and answers field errors.
import type { ContestSettings } from '../../../../shared/schemas/admin-contest';
import type { SiteFooter } from '../../../../shared/schemas/site';
import { Loading } from '../../../components/ui/loading';
import { usePageTitle } from '../../../lib/use-page-title';
import { useApiData } from '../../../lib/use-data';
import { ContestForm } from './contest-form';
import { FooterForm } from './footer-form';
import { PrizeTiersForm } from './prize-tiers-form';
import './contest.css';

export function ContestSettingsPage() {
  usePageTitle('Cài đặt cuộc thi');
  const contest = useApiData<ContestSettings>('/admin/contest');
  const site = useApiData<{ footer: SiteFooter; from_config: boolean }>('/admin/site');
  return (
    <section className="admin-page contest-settings">
      <h1>Cài đặt cuộc thi</h1>
      <p className="muted">Thay đổi có hiệu lực ngay trên toàn bộ trang (trang công khai cập nhật sau tối đa 10 giây). Mọi thay đổi được ghi vào nhật ký thao tác.</p>
      {contest.message && <p role="alert" className="field-error">{contest.message}</p>}
      {contest.data ? (
        <>
          <ContestForm settings={contest.data} />
          <PrizeTiersForm settings={contest.data} />
        </>
      ) : (
        !contest.message && <Loading />
      )}
      {site.message && <p role="alert" className="field-error">{site.message}</p>}
      {site.data && <FooterForm footer={site.data.footer} fromConfig={site.data.from_config} />}
    </section>
  );
}
