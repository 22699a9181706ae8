// Downloads one of the results' exports (.xlsx).
import { resultExportFileNames, type ResultExportKind } from '../../../../shared/schemas/admin-results';
import { downloadFile } from '../../../lib/download';

export const downloadExport = (kind: ResultExportKind, query = '') => downloadFile(`/admin/results/exports/${kind}.xlsx${query}`, resultExportFileNames[kind]);
