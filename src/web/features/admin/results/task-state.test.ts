import { describe, expect, it } from 'vitest';
import type { ResultTaskView } from '../../../../shared/schemas/admin-results';
import { laterTask } from './task-state';

const task = (id: number, status: ResultTaskView['status']): ResultTaskView => ({
  id,
  status,
  forced: false,
  stage: 'ranking',
  done: 0,
  total: 0,
  started_at: '2026-12-06T10:00:00.000Z',
  finished_at: null,
  error: null,
  summary: null,
});

describe('the computation task shown on the results page', () => {
  it('keeps a task just started when an overview asked for before it answers with the previous one', () => {
    expect(laterTask(task(2, 'running'), task(1, 'done'))).toEqual(task(2, 'running'));
  });
  it("takes the overview's task when it is the same or a later one", () => {
    expect(laterTask(task(2, 'running'), task(2, 'done'))).toEqual(task(2, 'done'));
    expect(laterTask(task(1, 'done'), task(3, 'running'))).toEqual(task(3, 'running'));
    expect(laterTask(null, task(1, 'done'))).toEqual(task(1, 'done'));
  });
  it('keeps the task it has when the overview has none', () => {
    expect(laterTask(task(1, 'done'), null)).toEqual(task(1, 'done'));
    expect(laterTask(null, null)).toBeNull();
  });
});
