import { describe, expect, it } from 'vitest';
import { fileNameOf } from './download';

describe('fileNameOf', () => {
  it('reads the plain and the encoded name of a Content-Disposition, the encoded one first', () => {
    expect(fileNameOf('attachment; filename="so_lieu_tham_gia.xlsx"')).toBe('so_lieu_tham_gia.xlsx');
    expect(fileNameOf('attachment; filename=ket_qua.xlsx')).toBe('ket_qua.xlsx');
    expect(fileNameOf(`attachment; filename="ket-qua.xlsx"; filename*=UTF-8''k%E1%BA%BFt-qu%E1%BA%A3.xlsx`)).toBe('kết-quả.xlsx');
  });

  it('has no name without the header or a name in it, and falls back on the plain name when the encoded one is malformed', () => {
    expect(fileNameOf(null)).toBeUndefined();
    expect(fileNameOf('attachment')).toBeUndefined();
    expect(fileNameOf(`attachment; filename*=UTF-8''%E1%BA; filename="a.xlsx"`)).toBe('a.xlsx');
  });
});
