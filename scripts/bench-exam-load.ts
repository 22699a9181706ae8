// The exam-day benchmark's load generator (scripts/bench-exam.ts): a worker thread of its own, so
// that its event loop sends on schedule while the main thread measures (probes, CPU, metrics).
// It keeps every contestant's state (exam, answers sent and acknowledged) across the phases and
// runs each phase on command: the held load (open loop: each contestant saves every 30 s and
// re-syncs every 60 s, at a random phase, whether or not earlier requests were answered), the
// saturation (closed loop), the overload (open loop at a fixed rate of saves).
// Loopback only; every request has a 30 s timeout.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

// Kept-alive connections, up to 4,096 per app process: the requests of an open loop must reach the
// server, as those of thousands of browsers would, and not wait in this process (a pool of 512
// held the overload here, so that the server saw no overload and never refused: every save was
// accepted, 20-30 s late). Requests beyond them wait in the agent, and that wait counts in their latency.
export const agent = new http.Agent({ keepAlive: true, maxSockets: 4096, maxFreeSockets: 4096 });

export interface Reply {
  status: number;
  json: any;
}

/** A body sent as it is (an upload), instead of `body` as JSON. */
export interface RawBody {
  contentType: string;
  data: Buffer;
}

export function call(port: number, method: string, path: string, body?: unknown, token?: string, timeoutMs = 30_000, raw?: RawBody): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = raw ? raw.data : body === undefined ? undefined : JSON.stringify(body);
    const contentType = raw ? raw.contentType : 'application/json';
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          accept: 'application/json',
          ...(payload !== undefined ? { 'content-type': contentType, 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = text;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON: keep the text for the error sample
          }
          resolve({ status: response.statusCode ?? 0, json });
        });
        response.on('error', reject);
      },
    );
    request.setTimeout(timeoutMs, () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end(payload);
  });
}

/** An exam paper as the load generator needs it: question ids and each question's answer ids. */
export interface Paper {
  questions: number[];
  answers: number[][];
}

/** The answer contestant i gives to question j of its paper (so that the check needs no record of it). */
export const answerOf = (paper: Paper, i: number, j: number) => paper.answers[j]![(i + j) % paper.answers[j]!.length]!;

/** Latencies (ms) of one kind of request, with errors and a few error samples. */
export interface Tally {
  latencies: number[];
  errors: number;
  samples: string[];
  /** Answered 503 (counted apart from errors in the overload phase): latency of each. */
  refused: number[];
}

const tally = (): Tally => ({ latencies: [], errors: 0, samples: [], refused: [] });
const sample = (t: Tally, text: string) => {
  t.errors += 1;
  if (t.samples.length < 3) t.samples.push(text);
};

export type Command =
  | { type: 'add'; from: number; examIds: Int32Array; slugs: string[]; papers: Int32Array }
  | { type: 'held'; count: number; seconds: number; saveEveryMs: number; syncEveryMs: number }
  | { type: 'saturate'; count: number; seconds: number; concurrency: number }
  | { type: 'overload'; count: number; seconds: number; savesPerSecond: number }
  | { type: 'state' };

export interface LoadSetup {
  role: 'bench-load';
  ports: number[];
  secret: string;
  total: number;
  papers: Paper[];
}

function runWorker(setup: LoadSetup) {
  const { ports, secret, total, papers } = setup;
  const examIds = new Int32Array(total);
  const slugs: string[] = new Array(total).fill('');
  const paperOf = new Int32Array(total);
  /** Questions answered in the last save sent, its seq; the same of the last save acknowledged. */
  const answered = new Int8Array(total);
  const seqs = new Int32Array(total);
  const ackedSeq = new Int32Array(total);
  const ackedAnswered = new Int8Array(total);
  const saving = new Uint8Array(total);
  const portOf = (i: number) => ports[i % ports.length]!;
  const tokenOf = (i: number) => `${secret}${i}`;

  /** The contestant's next save: one more question answered (the same state again once all are). */
  function nextSave(i: number) {
    const paper = papers[paperOf[i]!]!;
    if (answered[i]! < paper.questions.length) answered[i]! += 1;
    seqs[i]! += 1;
    const answers = [];
    for (let j = 0; j < answered[i]!; j += 1) answers.push({ question_id: paper.questions[j]!, answer_id: answerOf(paper, i, j) });
    return { seq: seqs[i]!, count: answered[i]!, body: { exam_id: examIds[i]!, slug: slugs[i]!, answers, prediction: 1000 + (i % 1000), seq: seqs[i]! } };
  }

  /** One save of contestant i; false when its previous save is still unanswered (a real screen waits too). */
  function save(i: number, t: Tally, onDone?: () => void): boolean {
    if (saving[i]) return false;
    saving[i] = 1;
    const { seq, count, body } = nextSave(i);
    const start = performance.now();
    call(portOf(i), 'POST', '/api/store-answers-exam', body, tokenOf(i))
      .then((reply) => {
        const ms = performance.now() - start;
        if (reply.status === 200 && reply.json?.saved === true) {
          t.latencies.push(ms);
          if (seq > ackedSeq[i]!) {
            ackedSeq[i] = seq;
            ackedAnswered[i] = count;
          }
        } else if (reply.status === 503) {
          t.refused.push(ms);
        } else sample(t, `${reply.status} ${JSON.stringify(reply.json).slice(0, 160)}`);
      })
      .catch((error) => {
        t.latencies.push(performance.now() - start);
        sample(t, String(error));
      })
      .finally(() => {
        saving[i] = 0;
        onDone?.();
      });
    return true;
  }

  function sync(i: number, t: Tally, onDone: () => void) {
    const start = performance.now();
    call(portOf(i), 'GET', `/api/examing/get-time?exam_id=${examIds[i]}`, undefined, tokenOf(i))
      .then((reply) => {
        const ms = performance.now() - start;
        if (reply.status === 200) t.latencies.push(ms);
        else if (reply.status === 503) t.refused.push(ms);
        else sample(t, `${reply.status} ${JSON.stringify(reply.json).slice(0, 160)}`);
      })
      .catch((error) => {
        t.latencies.push(performance.now() - start);
        sample(t, String(error));
      })
      .finally(onDone);
  }

  /** Open loop: contestants 0..count-1, each at a random phase of its periods. */
  async function held(count: number, seconds: number, saveEveryMs: number, syncEveryMs: number) {
    const saves = tally();
    const syncs = tally();
    const holdMs = seconds * 1000;
    // Event times and (contestant * 2 + kind), sorted by time.
    const times: number[] = [];
    const whats: number[] = [];
    for (let i = 0; i < count; i += 1) {
      for (let at = Math.random() * saveEveryMs; at < holdMs; at += saveEveryMs) {
        times.push(at);
        whats.push(i * 2);
      }
      for (let at = Math.random() * syncEveryMs; at < holdMs; at += syncEveryMs) {
        times.push(at);
        whats.push(i * 2 + 1);
      }
    }
    const order = Uint32Array.from(times.keys()).sort((a, b) => times[a]! - times[b]!);
    let skipped = 0;
    let late = 0;
    let inFlight = 0;
    const MAX_IN_FLIGHT = 20_000;
    const done = () => void (inFlight -= 1);
    await new Promise<void>((resolve) => {
      const t0 = performance.now();
      let next = 0;
      const tick = setInterval(() => {
        const now = performance.now() - t0;
        while (next < order.length && times[order[next]!]! <= now) {
          const k = order[next++]!;
          late = Math.max(late, now - times[k]!);
          const i = whats[k]! >> 1;
          if (inFlight >= MAX_IN_FLIGHT) {
            skipped += 1;
            continue;
          }
          if (whats[k]! & 1) {
            inFlight += 1;
            sync(i, syncs, done);
          } else if (save(i, saves, done)) inFlight += 1;
          else skipped += 1;
        }
        if (next >= order.length && inFlight === 0) {
          clearInterval(tick);
          resolve();
        }
      }, 2);
    });
    return { saves, syncs, skipped, lateMs: late };
  }

  async function saturate(count: number, seconds: number, concurrency: number) {
    const saves = tally();
    const until = performance.now() + seconds * 1000;
    let cursor = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          await new Promise<void>((resolve) => {
            for (;;) {
              const i = cursor++ % count;
              if (save(i, saves, resolve)) return;
            }
          });
        }
      }),
    );
    return { saves };
  }

  /** Open loop at a fixed rate of saves, over the contestants in turn (one skipped while its save is unanswered). */
  async function overload(count: number, seconds: number, savesPerSecond: number) {
    const saves = tally();
    let sent = 0;
    let skipped = 0;
    let inFlight = 0;
    let cursor = 0;
    await new Promise<void>((resolve) => {
      const t0 = performance.now();
      const tick = setInterval(() => {
        const elapsed = performance.now() - t0;
        const due = Math.min(seconds * 1000, elapsed) * (savesPerSecond / 1000);
        while (sent < due) {
          sent += 1;
          let tries = 0;
          while (tries < count && !save(cursor++ % count, saves, () => void (inFlight -= 1))) tries += 1;
          if (tries < count) inFlight += 1;
          else skipped += 1;
        }
        if (elapsed >= seconds * 1000 && inFlight === 0) {
          clearInterval(tick);
          resolve();
        }
      }, 2);
    });
    return { saves, sent, skipped };
  }

  parentPort!.on('message', async (command: Command) => {
    let result: unknown;
    if (command.type === 'add') {
      examIds.set(command.examIds, command.from);
      paperOf.set(command.papers, command.from);
      command.slugs.forEach((slug, k) => (slugs[command.from + k] = slug));
      result = {};
    } else if (command.type === 'held') result = await held(command.count, command.seconds, command.saveEveryMs, command.syncEveryMs);
    else if (command.type === 'saturate') result = await saturate(command.count, command.seconds, command.concurrency);
    else if (command.type === 'overload') result = await overload(command.count, command.seconds, command.savesPerSecond);
    else result = { ackedSeq, ackedAnswered };
    parentPort!.postMessage(result);
  });
  parentPort!.postMessage('ready');
}

if (parentPort && (workerData as LoadSetup | undefined)?.role === 'bench-load') runWorker(workerData as LoadSetup);
