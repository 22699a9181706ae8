// Downloads one of the results' exports (.xlsx). They need the session's token, so they are
// fetched and saved rather than linked.
import { resultExportFileNames, type ResultExportKind } from '../../../../shared/schemas/admin-results';
import { notify } from '../../../components/ui/notices';
import { getSession } from '../../../lib/session';

export async function downloadExport(kind: ResultExportKind, query = '') {
  const response = await fetch(`/api/admin/results/exports/${kind}.xlsx${query}`, { headers: { authorization: `Bearer ${getSession()?.token ?? ''}` } });
  if (!response.ok) {
    notify('error', 'Xuất excel thất bại. Vui lòng thử lại.');
    return;
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = resultExportFileNames[kind];
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

