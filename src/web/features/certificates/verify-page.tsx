// /xac-minh/:code: public confirmation of a printed certificate (kind, name as printed, contest,
// date) or, for a revoked one, that it is no longer valid and since when; and a field to check
// another code.
import { useEffect, useState, type FormEvent } from 'react';
import { resultMessages } from '../../../shared/messages';
import type { VerifyResponse } from '../../../shared/schemas/certificates';
import { Button } from '../../components/ui/button';
import { TextField } from '../../components/ui/field';
import { ApiRequestError, api } from '../../lib/api-client';
import { useNavigate, useParams } from '../../lib/router';
import { usePageTitle } from '../../lib/use-page-title';
import './certificates.css';

type State = { status: 'loading' } | { status: 'invalid'; message: string } | { status: 'valid'; data: VerifyResponse['data'] };

export function VerifyPage() {
  usePageTitle('Xác minh giấy chứng nhận');
  const { code } = useParams<{ code: string }>();
  const navigate = useNavigate();
  const [state, setState] = useState<State>({ status: 'loading' });
  const [typed, setTyped] = useState('');

  useEffect(() => {
    let active = true;
    setState({ status: 'loading' });
    api.get<VerifyResponse>(`/certificates/verify/${encodeURIComponent(code)}`).then(
      (response) => active && setState({ status: 'valid', data: response.data }),
      (error: unknown) => {
        if (!active) return;
        if (error instanceof ApiRequestError) setState({ status: 'invalid', message: error.body.message });
        else {
          console.warn('Không kiểm tra được mã chứng nhận', error);
          setState({ status: 'invalid', message: resultMessages.loadFailed });
        }
      },
    );
    return () => {
      active = false;
    };
  }, [code]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = typed.trim().toUpperCase();
    if (next) navigate(`/xac-minh/${encodeURIComponent(next)}`);
  };

  return (
    <div className="container page verify-page">
      <h1>Xác minh giấy chứng nhận</h1>
      {state.status === 'loading' ? (
        <p className="muted" aria-busy="true">
          Đang kiểm tra…
        </p>
      ) : state.status === 'invalid' ? (
        <p className="alert alert-error" role="alert">
          {state.message}
        </p>
      ) : (
        <section className="card verify-result" aria-labelledby="verify-title">
          {state.data.revoked ? (
            <div className="alert alert-error" role="alert">
              <p id="verify-title" className="verify-revoked">
                Giấy chứng nhận đã bị thu hồi
              </p>
              <p>
                {state.data.revoked.message} Ngày thu hồi: {state.data.revoked.date}.
              </p>
            </div>
          ) : state.data.erased ? (
            <div className="alert" role="status">
              <p id="verify-title" className="verify-erased">
                Giấy chứng nhận đã được cấp
              </p>
              <p>
                {state.data.erased.message} Ngày xoá: {state.data.erased.date}.
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
              <dd>{state.data.title}</dd>
            </div>
            {!state.data.erased && (
              <div>
                <dt>Cấp cho</dt>
                <dd>{state.data.name}</dd>
              </div>
            )}
            <div>
              <dt>Cuộc thi</dt>
              <dd>{state.data.contest}</dd>
            </div>
            <div>
              <dt>Ngày cấp</dt>
              <dd>{state.data.date}</dd>
            </div>
            <div>
              <dt>Mã chứng nhận</dt>
              <dd>{state.data.code}</dd>
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
