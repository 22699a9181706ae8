// /xac-minh/:code: public confirmation of a printed certificate (kind, name as printed, contest,
// date) or, for a revoked one, that it is no longer valid and since when; and a field to check
// another code.
import { useState, type FormEvent } from 'react';
import { resultMessages } from '../../../shared/messages';
import { normaliseCertificateCode } from '../../../shared/certificate-code';
import type { VerifyResponse } from '../../../shared/schemas/certificates';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { api } from '../../lib/api-client';
import { useData } from '../../lib/use-data';
import { useNavigate, useParams } from '../../lib/router';
import { usePageTitle } from '../../lib/use-page-title';
import './certificates.css';

/** "Hội thi 2025 (đã kết thúc)": an earlier season's certificate stays valid, its season is over. */
const seasonName = (season: { name: string; current: boolean }) => (season.current ? season.name : `${season.name} (đã kết thúc)`);

export function VerifyPage() {
  usePageTitle('Xác minh giấy chứng nhận');
  const { code } = useParams<{ code: string }>();
  const navigate = useNavigate();
  const verified = useData(code, (signal) => api.get<VerifyResponse>(`/certificates/verify/${encodeURIComponent(code)}`, { signal }).then((response) => response.data), {
    failed: resultMessages.loadFailed,
    warn: 'Không kiểm tra được mã chứng nhận',
  });
  const data = verified.data;
  const [typed, setTyped] = useState('');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = normaliseCertificateCode(typed);
    if (next) navigate(`/xac-minh/${encodeURIComponent(next)}`);
  };

  return (
    <div className="container page verify-page">
      <h1>Xác minh giấy chứng nhận</h1>
      {verified.loading ? (
        <p className="muted" aria-busy="true">
          Đang kiểm tra…
        </p>
      ) : verified.message || !data ? (
        <p className="alert alert-error" role="alert">
          {verified.message}
        </p>
      ) : (
        <section className="card verify-result" aria-labelledby="verify-title">
          {data.revoked ? (
            <div className="alert alert-error" role="alert">
              <p id="verify-title" className="verify-revoked">
                Giấy chứng nhận đã bị thu hồi
              </p>
              <p>
                {data.revoked.message} Ngày thu hồi: {data.revoked.date}.
              </p>
            </div>
          ) : data.erased ? (
            <div className="alert" role="status">
              <p id="verify-title" className="verify-erased">
                Giấy chứng nhận đã được cấp
              </p>
              <p>
                {data.erased.message} Ngày xoá: {data.erased.date}.
              </p>
            </div>
          ) : (
            <p id="verify-title" className="verify-valid">
              Giấy chứng nhận hợp lệ
            </p>
          )}
          <dl className="verify-facts">
            <div>
              <dt>Loại giấy chứng nhận</dt>
              <dd>{data.title}</dd>
            </div>
            {!data.erased && (
              <div>
                <dt>Cấp cho</dt>
                <dd>{data.name}</dd>
              </div>
            )}
            {/* A season named as its contest (the usual case) is said once, on the contest's line. */}
            <div>
              <dt>Cuộc thi</dt>
              <dd>{data.season?.name === data.contest ? seasonName(data.season) : data.contest}</dd>
            </div>
            {data.season && data.season.name !== data.contest && (
              <div>
                <dt>Mùa thi</dt>
                <dd>{seasonName(data.season)}</dd>
              </div>
            )}
            <div>
              <dt>Ngày cấp</dt>
              <dd>{data.date}</dd>
            </div>
            <div>
              <dt>Mã chứng nhận</dt>
              <dd>{data.code}</dd>
            </div>
          </dl>
        </section>
      )}
      <form className="verify-form" onSubmit={onSubmit}>
        <TextField label="Kiểm tra mã khác" name="code" autoComplete="off" placeholder="VD: ABCD-EFGH-JKLM" value={typed} onChange={(event) => setTyped(event.target.value)} />
        <Button type="submit">Kiểm tra</Button>
      </form>
    </div>
  );
}
