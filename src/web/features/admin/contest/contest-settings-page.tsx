// /quan-tri/cuoc-thi: the contest's settings (dates, exam limits), its prizes, the site's
// footer and the certificates' signature and seal. Each card saves on its own; the server checks the whole set and answers field errors.
import type { ContestSettings } from '../../../../shared/schemas/admin-contest';
import type { SiteFooter } from '../../../../shared/schemas/site';
import { Loading } from '../../../components/ui/loading';
import { usePageTitle } from '../../../lib/use-page-title';
import { useApiData } from '../../../lib/use-data';
import { ContestForm } from './contest-form';
import { FooterForm } from './footer-form';
import { CertificateImagesForm } from './certificate-images-form';
import type { CertificateImagesResponse } from '../../../../shared/schemas/certificate-printing';
import { PrizeTiersForm } from './prize-tiers-form';
import './contest.css';

export function ContestSettingsPage() {
  usePageTitle('Cài đặt cuộc thi');
  const contest = useApiData<ContestSettings>('/admin/contest');
  const site = useApiData<{ footer: SiteFooter; from_config: boolean }>('/admin/site');
  const certificateImages = useApiData<CertificateImagesResponse['data']>('/admin/site/certificate-images');
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
      {certificateImages.message && <p role="alert" className="field-error">{certificateImages.message}</p>}
      {certificateImages.data && <CertificateImagesForm images={certificateImages.data} />}
    </section>
  );
}
