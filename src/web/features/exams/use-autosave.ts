// The exam screen's answers: kept on the device and saved to the server as they change
// (answer-store.ts), every few seconds while something is pending, at once when the connection
// returns (after the submit waiting for it), and with keepalive when the page is hidden or left.
import { useEffect, useReducer, useState } from 'react';
import { AUTOSAVE_INTERVAL_MS } from '../../../shared/rules';
import type { ExamingResponse } from '../../../shared/schemas/exams';
import { AnswerStore, type KeyValueStorage } from './answer-store';
import type { ExamBackend } from './exam-backend';

function deviceStorage(): KeyValueStorage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The paper's answer store, merged with what the device kept (`fromDevice`: the paper itself came
 * from the device, the device's answers are the newest); the screen renders at each change.
 */
export function useAnswerStore(data: ExamingResponse['data'], save: ExamBackend['save'], fromDevice: boolean): AnswerStore {
  const [store] = useState(() => new AnswerStore({ slug: data.slug, storage: deviceStorage(), send: save }));
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  useEffect(() => {
    const unsubscribe = store.subscribe(rerender);
    const kept = { answers: data.data_answers, prediction: data.prediction, saveSeq: data.save_seq };
    if (fromDevice) store.restoreFromDevice(kept);
    else store.restore(kept);
    return () => {
      unsubscribe();
      store.dispose();
    };
  }, [store, data, fromDevice]);
  return store;
}

/** Whether the browser says it has a network (navigator.onLine and its events). */
export function useBrowserOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const update = () => setOnline(navigator.onLine);
    window.addEventListener('online', update);
    window.addEventListener('offline', update);
    return () => {
      window.removeEventListener('online', update);
      window.removeEventListener('offline', update);
    };
  }, []);
  return online;
}

/**
 * Saving: the store's pending answers every AUTOSAVE_INTERVAL_MS; back online, `wakeSubmit` (a
 * submit waiting for the network goes first), then the answers, then the server's time (`resync`).
 */
export function useAutosave(store: AnswerStore, resync: () => Promise<unknown>, wakeSubmit: () => void) {
  useEffect(() => {
    const autosave = setInterval(() => void store.flush(), AUTOSAVE_INTERVAL_MS);
    const online = () => {
      wakeSubmit();
      void store.retryNow().then(resync);
    };
    const hidden = () => document.visibilityState === 'hidden' && void store.flush({ keepalive: true });
    const leaving = () => void store.flush({ keepalive: true });
    window.addEventListener('online', online);
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', leaving);
    return () => {
      clearInterval(autosave);
      window.removeEventListener('online', online);
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', leaving);
    };
  }, [store, resync, wakeSubmit]);
}
