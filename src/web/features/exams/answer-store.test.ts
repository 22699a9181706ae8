import { describe, expect, it } from 'vitest';
import { AnswerStore, storageKey, type KeyValueStorage, type SaveOutcome, type SavePayload } from './answer-store';

function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { data: Record<string, string> } {
  const data = { ...initial };
  return {
    data,
    getItem: (key) => data[key] ?? null,
    setItem: (key, value) => {
      data[key] = value;
    },
    removeItem: (key) => {
      delete data[key];
    },
  };
}

function manualTimers() {
  let next = 1;
  const pending = new Map<number, () => void>();
  /** The delay (ms) of every timer set, in order. */
  const delays: number[] = [];
  return {
    delays,
    set: (fn: () => void, ms: number) => {
      const id = next++;
      pending.set(id, fn);
      delays.push(ms);
      return id;
    },
    clear: (handle: unknown) => pending.delete(handle as number),
    runAll() {
      const fns = [...pending.values()];
      pending.clear();
      fns.forEach((fn) => fn());
    },
    get count() {
      return pending.size;
    },
  };
}

/** A server whose answers the test decides one by one. */
function fakeServer() {
  const calls: { payload: SavePayload; resolve: (outcome: SaveOutcome) => void; keepalive: boolean }[] = [];
  const send = (payload: SavePayload, options: { keepalive: boolean }) =>
    new Promise<SaveOutcome>((resolve) => calls.push({ payload, resolve, keepalive: options.keepalive }));
  return { calls, send };
}

const flushPromises = () => new Promise((resolve) => setTimeout(resolve, 0));
const SLUG = 'abcdefghijklmnopqrstuvwx';

function setup(initial: Record<string, string> = {}, random = () => 0.5) {
  const storage = memoryStorage(initial);
  const timers = manualTimers();
  const server = fakeServer();
  const store = new AnswerStore({ slug: SLUG, storage, send: server.send, timers, retryMs: 1_000, maxRetryMs: 8_000, random });
  return { storage, timers, server, store };
}

describe('AnswerStore', () => {
  it('keeps every answer on the device the moment it is chosen', () => {
    const { store, storage } = setup();
    store.restore({ answers: [], prediction: null, saveSeq: 0 });
    store.choose(11, 101);
    store.setPrediction('250');
    const kept = JSON.parse(storage.data[storageKey(SLUG)]!);
    expect(kept).toMatchObject({ seq: 2, ackedSeq: 0, answers: { 11: 101 }, prediction: '250' });
    expect(store.status).toBe('saving');
  });

  it('sends one debounced save with the latest snapshot and its seq, then reports saved', async () => {
    const { store, timers, server } = setup();
    store.restore({ answers: [], prediction: null, saveSeq: 0 });
    store.choose(11, 101);
    store.choose(12, 102);
    store.setPrediction('1.5');
    expect(server.calls).toHaveLength(0);
    timers.runAll();
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]!.payload).toEqual({ answers: [{ question_id: 11, answer_id: 101 }, { question_id: 12, answer_id: 102 }], seq: 3 });
    server.calls[0]!.resolve({ kind: 'ok' });
    await flushPromises();
    expect(store.ackedSeq).toBe(3);
    expect(store.status).toBe('saved');
  });

  it('never runs two saves at once: a change during a save goes in the next one, with a higher seq', async () => {
    const { store, timers, server } = setup();
    store.restore({ answers: [], prediction: null, saveSeq: 0 });
    store.choose(11, 101);
    void store.flush();
    store.choose(12, 102);
    void store.flush();
    expect(server.calls).toHaveLength(1);
    server.calls[0]!.resolve({ kind: 'ok' });
    await flushPromises();
    timers.runAll();
    await flushPromises();
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]!.payload.seq).toBe(2);
    expect(server.calls[1]!.payload.answers).toHaveLength(2);
  });

  it('keeps answers while offline, retries later and sends at once when the connection returns', async () => {
    const { store, timers, server } = setup();
    store.restore({ answers: [], prediction: null, saveSeq: 0 });
    store.choose(11, 101);
    void store.flush();
    server.calls[0]!.resolve({ kind: 'unavailable' });
    await flushPromises();
    expect(store.status).toBe('offline');
    expect(timers.count).toBe(1); // the retry
    store.choose(12, 102);
    expect(store.status).toBe('offline');
    void store.retryNow();
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]!.payload.seq).toBe(2);
    server.calls[1]!.resolve({ kind: 'ok' });
    await flushPromises();
    expect(store.status).toBe('saved');
  });

  it('restores device answers newer than the server and sends them', async () => {
    const kept = { v: 1, seq: 7, ackedSeq: 4, answers: { 11: 101, 12: 102, 13: 103 }, prediction: '42' };
    const { store, server } = setup({ [storageKey(SLUG)]: JSON.stringify(kept) });
    store.restore({ answers: [{ question_id: 11, answer_id: 109 }, { question_id: 14, answer_id: 104 }], prediction: 5, saveSeq: 4 });
    expect(store.answers).toEqual({ 11: 101, 12: 102, 13: 103, 14: 104 });
    expect(store.predictionText).toBe('42');
    expect(store.seq).toBe(7);
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]!.payload.seq).toBe(7);
  });

  it('takes the server answers when they are as new or newer than the device copy', () => {
    const kept = { v: 1, seq: 3, ackedSeq: 3, answers: { 11: 101 }, prediction: '' };
    const { store, server } = setup({ [storageKey(SLUG)]: JSON.stringify(kept) });
    store.restore({ answers: [{ question_id: 11, answer_id: 109 }], prediction: 8, saveSeq: 5 });
    expect(store.answers).toEqual({ 11: 109 });
    expect(store.predictionText).toBe('8');
    expect(store.seq).toBe(5);
    expect(store.pending).toBe(false);
    expect(server.calls).toHaveLength(0);
  });

  describe('a paper shown from the device without the server (a reload offline, issue 24.8)', () => {
    // Saved twice since the paper was loaded (the kept paper still says seq 2), then two answers offline.
    const device = {
      v: 1,
      seq: 6,
      ackedSeq: 4,
      answers: { 11: 101, 12: 102, 13: 103, 14: 104 },
      prediction: '',
      current: 3,
      acked: { answers: { 11: 101, 12: 102 } },
    };
    const keptPaper = { answers: [{ question_id: 11, answer_id: 101 }], prediction: null, saveSeq: 2 };

    it('takes the device copy as it is, never as a change made elsewhere, and sends what is pending', () => {
      const { store, server } = setup({ [storageKey(SLUG)]: JSON.stringify(device) });
      store.restoreFromDevice(keptPaper);
      expect(store.elsewhere).toBeNull();
      expect(store.answers).toEqual(device.answers);
      expect(store.current).toBe(3);
      expect(store.unsavedCount()).toBe(2);
      expect(server.calls).toHaveLength(1);
      expect(server.calls[0]!.payload.seq).toBe(6);
      expect(server.calls[0]!.payload.answers).toHaveLength(4);
    });

    it('would be taken for another screen by restore(), the kept answers being older than the saves since', () => {
      const { store } = setup({ [storageKey(SLUG)]: JSON.stringify(device) });
      store.restore(keptPaper);
      expect(store.elsewhere).not.toBeNull();
    });

    it("without a device copy, shows the kept paper's answers", () => {
      const { store, server } = setup();
      store.restoreFromDevice(keptPaper);
      expect(store.answers).toEqual({ 11: 101 });
      expect(store.seq).toBe(2);
      expect(server.calls).toHaveLength(0);
    });
  });

  it('ignores a damaged device copy', () => {
    const { store } = setup({ [storageKey(SLUG)]: '{not json' });
    store.restore({ answers: [{ question_id: 11, answer_id: 109 }], prediction: null, saveSeq: 0 });
    expect(store.answers).toEqual({ 11: 109 });
  });

  it('stops saving when the server refuses for good, and forgets the device copy when closed', async () => {
    const { store, timers, server, storage } = setup();
    store.restore({ answers: [], prediction: null, saveSeq: 0 });
    store.choose(11, 101);
    void store.flush();
    server.calls[0]!.resolve({ kind: 'refused', code: 'time_up', message: 'Hết giờ' });
    await flushPromises();
    expect(store.refusal).toEqual({ code: 'time_up', message: 'Hết giờ' });
    store.choose(12, 102);
    timers.runAll();
    await flushPromises();
    expect(server.calls).toHaveLength(1);
    store.close();
    expect(storage.data[storageKey(SLUG)]).toBeUndefined();
  });

  it('keeps the item on screen on the device, without sending anything, and restores it', () => {
    const { store, storage, server } = setup();
    store.restore({ answers: [], prediction: null, saveSeq: 0 });
    expect(store.current).toBe(0);
    store.goTo(6);
    expect(JSON.parse(storage.data[storageKey(SLUG)]!).current).toBe(6);
    expect(store.pending).toBe(false);
    expect(server.calls).toHaveLength(0);

    const again = new AnswerStore({ slug: SLUG, storage, send: server.send, timers: manualTimers() });
    again.restore({ answers: [], prediction: null, saveSeq: 0 });
    expect(again.current).toBe(6);
  });

  it('holds the answers on a 401 until the parent logs in again, then sends them all', async () => {
    const { store, timers, server, storage } = setup();
    store.restore({ answers: [], prediction: null, saveSeq: 0 });
    store.choose(11, 101);
    void store.flush();
    server.calls[0]!.resolve({ kind: 'unauthorized' });
    await flushPromises();
    expect(store.loginNeeded).toBe(true);
    expect(store.refusal).toBeNull();
    store.choose(12, 102);
    timers.runAll();
    await flushPromises();
    expect(server.calls).toHaveLength(1); // nothing sent while the session is gone
    expect(JSON.parse(storage.data[storageKey(SLUG)]!).answers).toEqual({ 11: 101, 12: 102 });

    void store.retryNow();
    expect(store.loginNeeded).toBe(false);
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]!.payload.answers).toHaveLength(2);
    server.calls[1]!.resolve({ kind: 'ok' });
    await flushPromises();
    expect(store.status).toBe('saved');
  });

  it('fires a keepalive save when the page goes away', () => {
    const { store, server } = setup();
    store.restore({ answers: [], prediction: null, saveSeq: 0 });
    store.choose(11, 101);
    void store.flush({ keepalive: true });
    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]!.keepalive).toBe(true);
  });

  it('treats a server briefly away like a lost connection: answers kept, the notice shown, a retry not before Retry-After', async () => {
    const { store, timers, server, storage } = setup({}, () => 0);
    store.restore({ answers: [], prediction: null, saveSeq: 0 });
    store.choose(11, 101);
    void store.flush();
    server.calls[0]!.resolve({ kind: 'unavailable', retryAfterSeconds: 2 });
    await flushPromises();
    expect(store.status).toBe('offline');
    expect(timers.delays.at(-1)).toBe(2_000); // the jitter drew 0: exactly the Retry-After
    expect(JSON.parse(storage.data[storageKey(SLUG)]!)).toMatchObject({ seq: 1, ackedSeq: 0, answers: { 11: 101 } });
  });

  it('backs off with jitter while failures last, sends nothing else meanwhile, and starts over after a success', async () => {
    const { store, timers, server } = setup();
    store.restore({ answers: [], prediction: null, saveSeq: 0 });
    store.choose(11, 101);
    void store.flush();
    const fail = async (index: number) => {
      server.calls[index]!.resolve({ kind: 'unavailable' });
      await flushPromises();
    };
    await fail(0);
    expect(timers.delays.at(-1)).toBe(500); // random 0.5 of min(8 s, 1 s * 2^0)

    // The child keeps answering: kept on the device, but no save before the retry.
    store.choose(12, 102);
    store.setPrediction('7');
    timers.runAll(); // the debounce and the retry: only the retry sends
    await flushPromises();
    expect(server.calls).toHaveLength(2);
    expect(server.calls[1]!.payload).toMatchObject({ seq: 3, prediction: 7 });
    expect(server.calls[1]!.payload.answers).toHaveLength(2);

    await fail(1);
    expect(timers.delays.at(-1)).toBe(1_000); // 0.5 * 2 s
    timers.runAll();
    await flushPromises();
    await fail(2);
    expect(timers.delays.at(-1)).toBe(2_000); // 0.5 * 4 s
    timers.runAll();
    await flushPromises();
    await fail(3);
    timers.runAll();
    await flushPromises();
    await fail(4);
    expect(timers.delays.at(-1)).toBe(4_000); // 0.5 * the 8 s cap
    timers.runAll();
    await flushPromises();

    server.calls[5]!.resolve({ kind: 'ok' });
    await flushPromises();
    expect(store.status).toBe('saved');
    expect(store.ackedSeq).toBe(3);

    store.choose(13, 103);
    timers.runAll();
    await flushPromises();
    await fail(6);
    expect(timers.delays.at(-1)).toBe(500); // back to the first window
  });

  it('retries other failures (a 500, a conflict) quietly, showing the save as under way', async () => {
    const { store, timers, server } = setup();
    store.restore({ answers: [], prediction: null, saveSeq: 0 });
    store.choose(11, 101);
    void store.flush();
    server.calls[0]!.resolve({ kind: 'retry' });
    await flushPromises();
    expect(store.status).toBe('saving');
    expect(timers.count).toBe(1);
    timers.runAll();
    await flushPromises();
    expect(server.calls).toHaveLength(2);
  });

  describe('another screen took the exam over (409 exam_open_elsewhere)', () => {
    const elsewhere: SaveOutcome = { kind: 'elsewhere' };

    it('stops at once: no retry, no later save, not even the keepalive of a page going away', async () => {
      const { store, timers, server } = setup();
      store.restore({ answers: [], prediction: null, saveSeq: 0 });
      store.choose(11, 101);
      void store.flush();
      server.calls[0]!.resolve(elsewhere);
      await flushPromises();
      expect(store.status).toBe('stopped');
      expect(store.elsewhere).toEqual({ unsaved: 1 });
      expect(timers.count).toBe(0);
      void store.retryNow(); // the connection came back
      void store.flush({ keepalive: true }); // the page goes away
      timers.runAll();
      await flushPromises();
      expect(server.calls).toHaveLength(1);
    });

    it('counts the answers the server never acknowledged, changed ones and the prediction included', async () => {
      const { store, server } = setup();
      store.restore({ answers: [{ question_id: 11, answer_id: 101 }], prediction: null, saveSeq: 4 });
      store.choose(12, 102);
      void store.flush();
      server.calls[0]!.resolve({ kind: 'ok' });
      await flushPromises();
      store.choose(12, 103); // changed after its save
      store.choose(13, 104);
      store.setPrediction('300');
      store.setPrediction('300x'); // not a valid prediction: not an answer
      store.setPrediction('300');
      void store.flush();
      server.calls[1]!.resolve(elsewhere);
      await flushPromises();
      expect(store.elsewhere?.unsaved).toBe(3);
    });

    it('forgets the unsaved answers on the device, keeping the item on screen, so that a reload takes the server answers as they are', async () => {
      const { store, server, storage } = setup();
      store.restore({ answers: [{ question_id: 11, answer_id: 101 }], prediction: null, saveSeq: 4 });
      store.goTo(3);
      store.choose(11, 109);
      store.choose(12, 102);
      void store.flush();
      server.calls[0]!.resolve(elsewhere);
      await flushPromises();
      store.goTo(5);
      const kept = JSON.parse(storage.data[storageKey(SLUG)]!);
      expect(kept).toMatchObject({ seq: 0, ackedSeq: 0, answers: {}, prediction: '', current: 5 });

      // "Tiếp tục ở đây": the screen loads the exam again; the other screen had saved meanwhile.
      const again = new AnswerStore({ slug: SLUG, storage, send: server.send, timers: manualTimers() });
      again.restore({ answers: [{ question_id: 11, answer_id: 105 }, { question_id: 14, answer_id: 140 }], prediction: 77, saveSeq: 9 });
      expect(again.answers).toEqual({ 11: 105, 14: 140 });
      expect(again.predictionText).toBe('77');
      expect(again.pending).toBe(false);
      expect(again.current).toBe(5);
      expect(server.calls).toHaveLength(1);
    });

    it('changes nothing once stopped: the answers stay as they were when the other screen took over', async () => {
      const { store, server } = setup();
      store.restore({ answers: [], prediction: null, saveSeq: 0 });
      store.choose(11, 101);
      void store.flush();
      server.calls[0]!.resolve(elsewhere);
      await flushPromises();
      store.choose(11, 102);
      store.setPrediction('5');
      expect(store.answers).toEqual({ 11: 101 });
      expect(store.predictionText).toBe('');
    });

    it('is told by the submit as well, and a save still under way then changes nothing', async () => {
      const { store, server } = setup();
      store.restore({ answers: [], prediction: null, saveSeq: 0 });
      store.choose(11, 101);
      void store.flush();
      store.openedElsewhere();
      server.calls[0]!.resolve({ kind: 'ok' });
      await flushPromises();
      expect(store.status).toBe('stopped');
      expect(store.elsewhere?.unsaved).toBe(1);
    });

    it('a reload never merges answers kept on the device into answers another screen changed meanwhile', async () => {
      const { store, server, storage } = setup();
      store.restore({ answers: [{ question_id: 11, answer_id: 101 }], prediction: null, saveSeq: 4 });
      store.goTo(2);
      // Offline: two answers kept on the device only.
      store.choose(12, 102);
      store.choose(13, 103);
      void store.flush();
      server.calls[0]!.resolve({ kind: 'unavailable' });
      await flushPromises();

      // Meanwhile a tablet changed question 11 and answered 14; the phone is reloaded.
      const reloaded = new AnswerStore({ slug: SLUG, storage, send: server.send, timers: manualTimers() });
      reloaded.restore({ answers: [{ question_id: 11, answer_id: 105 }, { question_id: 14, answer_id: 140 }], prediction: null, saveSeq: 6 });
      expect(reloaded.answers).toEqual({ 11: 105, 14: 140 });
      expect(reloaded.elsewhere).toEqual({ unsaved: 2 });
      expect(reloaded.status).toBe('stopped');
      expect(reloaded.current).toBe(2);
      expect(server.calls).toHaveLength(1);
      expect(JSON.parse(storage.data[storageKey(SLUG)]!)).toMatchObject({ seq: 0, answers: {}, current: 2 });
    });

    it('a reload still sends what only this device kept when nobody else changed the answers, or its own save got through unacknowledged', async () => {
      for (const serverNow of [
        { answers: [{ question_id: 11, answer_id: 101 }], prediction: null, saveSeq: 4 },
        { answers: [{ question_id: 11, answer_id: 101 }, { question_id: 12, answer_id: 102 }], prediction: null, saveSeq: 5 },
      ]) {
        const { store, server, storage } = setup();
        store.restore({ answers: [{ question_id: 11, answer_id: 101 }], prediction: null, saveSeq: 4 });
        store.choose(12, 102);
        void store.flush();
        server.calls[0]!.resolve({ kind: 'unavailable' });
        await flushPromises();
        const reloaded = new AnswerStore({ slug: SLUG, storage, send: server.send, timers: manualTimers() });
        reloaded.restore(serverNow);
        expect(reloaded.elsewhere).toBeNull();
        expect(reloaded.answers).toEqual({ 11: 101, 12: 102 });
      }
    });

    it('leaves the device copy alone when another tab of the browser wrote it since (the one that took over)', async () => {
      const { store, server, storage } = setup();
      store.restore({ answers: [], prediction: null, saveSeq: 0 });
      store.choose(11, 101);
      // A second tab loads the exam (same device copy) and answers on.
      const other = new AnswerStore({ slug: SLUG, storage, send: fakeServer().send, timers: manualTimers() });
      other.restore({ answers: [], prediction: null, saveSeq: 0 });
      other.choose(12, 102);
      const theirs = storage.data[storageKey(SLUG)];
      void store.flush();
      server.calls[0]!.resolve(elsewhere);
      await flushPromises();
      store.goTo(4);
      expect(store.elsewhere).not.toBeNull();
      expect(storage.data[storageKey(SLUG)]).toBe(theirs);
    });
  });
});
