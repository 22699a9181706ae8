// The exam-day benchmark's load generator (scripts/bench-exam.ts): a process of its own (forked,
// commands and results over its IPC channel), so that it sends on schedule while the benchmark's
// process measures (probes, CPU, metrics), and so that it can be given cores of its own (--pin).
// It keeps every contestant's state (exam, answers sent and acknowledged) across the phases and
// runs each phase on command: the held load (open loop: each contestant saves every 30 s and
// re-syncs every 60 s, at a random phase, whether or not earlier requests were answered), the
// saturation (closed loop), the overload (open loop at a fixed rate of saves).
// Its requests go over a bounded set of kept-alive connections per app process (Connections
// below), opened gradually before the first phase, as the nginx in front of the app in production
// holds a few kept-alive connections to it (deploy/nginx.conf) instead of one per browser: a burst
// of thousands of new connections at once would overflow the app's listen backlog, and the resets
// and SYN retries (1, 3, 7 s) would be measured as the server's latency. The load stays open loop:
// a request that finds every connection busy waits in this process, and its latency runs from the
// moment it was due, so that wait counts; one that cannot be sent (the client's queue full, or
// still waiting after the timeout) is counted as not sent. Before the overload the set is widened
// (command 'widen'): nginx opens an upstream connection per request beyond its kept-alive ones, so
// at overload the app holds as many requests as the phones have sent, and must refuse them itself.
// Loopback only; every request has a 30 s timeout, from the moment it was due.
import http from 'node:http';
import net from 'node:net';

// The main thread's requests (the start storm, loads, probes, submits: at most --concurrency at
// once) and other benchmarks': kept-alive connections, opened as needed.
export const agent = new http.Agent({ keepAlive: true, maxSockets: 4096, maxFreeSockets: 4096 });

export interface Reply {
  status: number;
  json: any;
  /** When it was sent (performance.now()), for a request that waited for a connection (Connections.send). */
  sentAt?: number;
}

/** A body sent as it is (an upload), instead of `body` as JSON. */
export interface RawBody {
  contentType: string;
  data: Buffer;
}

export function call(
  port: number,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
  timeoutMs = 30_000,
  raw?: RawBody,
  through: http.Agent = agent,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = raw ? raw.data : body === undefined ? undefined : JSON.stringify(body);
    const contentType = raw ? raw.contentType : 'application/json';
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: through,
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

/** Why a request was not sent: it is counted apart, never as a latency. */
class NotSent extends Error {}

const CRLF2 = Buffer.from('\r\n\r\n');

/**
 * One kept-alive HTTP/1.1 connection written by hand, one request at a time. At overload the
 * generator sends thousands of requests a second from one core, and node:http's client cost about
 * 0.1 ms of CPU each (more than the app's refusal of it); this costs a fraction. It parses only what
 * the app sends: a status line and headers with a content-length (its JSON answers and refusals are
 * never chunked; a request without accept-encoding is never compressed), then that many bytes.
 * A connection the server closes is opened again by the next request.
 */
/** Why this process opened and closed its connections (reported by each held and overload phase). */
export const connectionEvents = { opened: 0, closedByServer: 0, closedOnTimeout: 0, closedOnConnectionClose: 0 };

/** The connection events since the last call, and the counts reset. */
function takeConnectionEvents() {
  const taken = { ...connectionEvents };
  for (const key of Object.keys(connectionEvents) as (keyof typeof connectionEvents)[]) connectionEvents[key] = 0;
  return taken;
}

class RawConnection {
  private socket: net.Socket | undefined;
  private received: Buffer[] = [];
  private receivedBytes = 0;
  private pending: { resolve(reply: Reply): void; reject(error: Error): void; timer: NodeJS.Timeout } | undefined;

  constructor(private readonly port: number) {}

  get isOpen() {
    return this.socket !== undefined && !this.socket.destroyed;
  }

  private connect(): Promise<net.Socket> {
    return new Promise((resolve, reject) => {
      connectionEvents.opened += 1;
      const socket = net.connect(this.port, '127.0.0.1');
      socket.setNoDelay(true);
      socket.once('connect', () => {
        socket.off('error', reject);
        socket.on('error', () => {}); // reported by 'close' below
        resolve(socket);
      });
      socket.once('error', reject);
      socket.on('data', (chunk: Buffer) => this.data(chunk));
      socket.once('close', () => {
        // Only the socket in use fails its request: a socket already replaced (timed out, or
        // closed on "connection: close") must not fail the request now in flight on the next one,
        // which would leave that request's answer to be taken for the following request's.
        if (this.socket !== socket) return;
        this.socket = undefined;
        connectionEvents.closedByServer += 1;
        this.fail(new Error('connection closed'));
      });
    });
  }

  private fail(error: Error) {
    const pending = this.pending;
    this.pending = undefined;
    this.received = [];
    this.receivedBytes = 0;
    if (pending) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
  }

  private data(chunk: Buffer) {
    this.received.push(chunk);
    this.receivedBytes += chunk.length;
    const all = this.received.length === 1 ? chunk : Buffer.concat(this.received, this.receivedBytes);
    this.received = [all];
    const headerEnd = all.indexOf(CRLF2);
    if (headerEnd < 0) return;
    const head = all.subarray(0, headerEnd).toString('latin1').toLowerCase();
    const length = Number(/\r\ncontent-length: *(\d+)/.exec(head)?.[1] ?? 0);
    if (all.length < headerEnd + 4 + length) return;
    const text = all.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
    this.received = [];
    this.receivedBytes = 0;
    const pending = this.pending;
    this.pending = undefined;
    if (!pending) return;
    clearTimeout(pending.timer);
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {
      // not JSON: keep the text for the error sample
    }
    pending.resolve({ status: Number(head.slice(9, 12)), json });
    if (/\r\nconnection: *close/.test(head) && this.socket) {
      connectionEvents.closedOnConnectionClose += 1;
      this.socket.destroy();
      this.socket = undefined;
    }
  }

  async send(method: string, path: string, body: unknown, token: string | undefined, timeoutMs: number): Promise<Reply> {
    if (!this.socket || this.socket.destroyed) this.socket = await this.connect();
    const payload = body === undefined ? '' : JSON.stringify(body);
    const headers =
      `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1:${this.port}\r\naccept: application/json\r\n` +
      (token ? `authorization: Bearer ${token}\r\n` : '') +
      (body === undefined ? '' : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n`) +
      '\r\n';
    return new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.socket) connectionEvents.closedOnTimeout += 1;
        this.socket?.destroy();
        this.socket = undefined;
        this.fail(new Error('timeout'));
      }, timeoutMs);
      this.pending = { resolve, reject, timer };
      this.socket!.write(headers + payload);
    });
  }
}

/**
 * A fixed set of kept-alive connections to one app process, each carrying one request at a time
 * (HTTP/1.1, as nginx's upstream connections do); requests that find all busy wait in a FIFO
 * queue here. Each connection is an agent of one socket, so the set is exactly `size` sockets.
 */
class Connections {
  private readonly idle: RawConnection[] = [];
  private readonly all: RawConnection[] = [];
  private readonly queue: ((through: RawConnection) => void)[] = [];
  private head = 0;

  constructor(
    private readonly port: number,
    size: number,
    private readonly maxQueue: number,
    private readonly timeoutMs: number,
  ) {
    this.add(size);
  }

  private add(count: number) {
    const added = Array.from({ length: count }, () => new RawConnection(this.port));
    this.all.push(...added);
    this.idle.push(...added);
    return added;
  }

  get size() {
    return this.all.length;
  }

  /** Opens the connections not opened yet, `batch` at a time (each with a GET /healthz), between phases. */
  async open(batch: number, connections: RawConnection[] = this.all) {
    for (let k = 0; k < connections.length; k += batch) {
      await Promise.all(connections.slice(k, k + batch).map((through) => through.send('GET', '/healthz', undefined, undefined, this.timeoutMs)));
    }
  }

  /**
   * Grows the set to `size` connections and opens every one not open: the new ones, and those the
   * server closed while idle (its keep-alive timeout, 72 s: a level that used few of them leaves
   * the rest idle), so that a phase starts from a warm set, as a steady state does.
   */
  async widen(size: number, batch: number) {
    if (size > this.all.length) this.add(size - this.all.length);
    await this.open(batch, this.all.filter((through) => !through.isOpen));
  }

  get waiting() {
    return this.queue.length - this.head;
  }

  /** Sends a request due at `dueAt` (performance.now() time) as soon as a connection is free. */
  send(method: string, path: string, body: unknown, token: string, dueAt: number): Promise<Reply> {
    return new Promise<Reply>((resolve, reject) => {
      const run = (through: RawConnection) => {
        const sentAt = performance.now();
        const left = this.timeoutMs - (sentAt - dueAt);
        const sent = left > 0 ? through.send(method, path, body, token, left) : Promise.reject(new NotSent('waited past the timeout'));
        sent.then((reply) => resolve({ ...reply, sentAt }), reject).finally(() => this.release(through));
      };
      const through = this.idle.pop();
      if (through) return run(through);
      if (this.waiting >= this.maxQueue) return reject(new NotSent('client queue full'));
      this.queue.push(run);
    });
  }

  private release(through: RawConnection) {
    const next = this.head < this.queue.length ? this.queue[this.head++] : undefined;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    if (next) next(through);
    else this.idle.push(through);
  }
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
  /**
   * The same two (saves only) timed from the moment they were sent instead of due: without the
   * time they waited in this process, for a free connection or for its own CPU.
   */
  fromSent: { accepted: number[]; refused: number[] };
  /** Not sent: every connection busy until the timeout, or the client's queue full. */
  unsent: number;
  /** Held phase only: per second of due time, the answers and those over 100 ms (where a tail comes from). */
  timeline?: { t0: number; answered: number[]; over100: number[] };
}

const tally = (): Tally => ({ latencies: [], errors: 0, samples: [], refused: [], fromSent: { accepted: [], refused: [] }, unsent: 0 });
/** Counts a latency in the second it was due (held phase). */
const onTimeline = (t: Tally, dueAt: number, ms: number) => {
  if (!t.timeline) return;
  const second = Math.max(0, Math.floor((dueAt - t.timeline.t0) / 1000));
  t.timeline.answered[second] = (t.timeline.answered[second] ?? 0) + 1;
  if (ms > 100) t.timeline.over100[second] = (t.timeline.over100[second] ?? 0) + 1;
};
const sample = (t: Tally, text: string) => {
  t.errors += 1;
  if (t.samples.length < 3) t.samples.push(text);
};

export type Command =
  | { type: 'add'; from: number; examIds: Int32Array; slugs: string[]; papers: Int32Array }
  | { type: 'held'; count: number; seconds: number; saveEveryMs: number; syncEveryMs: number }
  | { type: 'saturate'; count: number; seconds: number; concurrency: number }
  | { type: 'widen'; connections: number }
  | { type: 'overload'; count: number; seconds: number; savesPerSecond: number }
  | { type: 'state' };

export interface LoadSetup {
  ports: number[];
  /** Kept-alive connections per app process. */
  connections: number;
  secret: string;
  total: number;
  papers: Paper[];
}

function runGenerator(setup: LoadSetup) {
  const { ports, secret, total, papers } = setup;
  // Up to 50,000 requests wait for a connection per process; past that a request is not sent.
  const pools = ports.map((port) => new Connections(port, setup.connections, 50_000, 30_000));
  const opened = Promise.all(pools.map((pool) => pool.open(64)));
  const examIds = new Int32Array(total);
  const slugs: string[] = new Array(total).fill('');
  const paperOf = new Int32Array(total);
  /** Questions answered in the last save sent, its seq; the same of the last save acknowledged. */
  const answered = new Int8Array(total);
  const seqs = new Int32Array(total);
  const ackedSeq = new Int32Array(total);
  const ackedAnswered = new Int8Array(total);
  const saving = new Uint8Array(total);
  const poolOf = (i: number) => pools[i % pools.length]!;
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

  /** A failed request: not sent (counted apart), or an error whose latency counts. */
  function failed(t: Tally, dueAt: number, error: unknown) {
    if (error instanceof NotSent) {
      t.unsent += 1;
      return;
    }
    t.latencies.push(performance.now() - dueAt);
    sample(t, String(error));
  }

  /**
   * One save of contestant i, due at `dueAt` (its latency runs from then); false when its previous
   * save is still unanswered (a real screen waits too).
   */
  function save(i: number, t: Tally, onDone?: () => void, dueAt = performance.now()): boolean {
    // No exam (its start or its first load failed): this contestant has nothing to save.
    if (saving[i] || examIds[i] === 0) return false;
    saving[i] = 1;
    const { seq, count, body } = nextSave(i);
    const start = dueAt;
    poolOf(i)
      .send('POST', '/api/store-answers-exam', body, tokenOf(i), dueAt)
      .then((reply) => {
        const now = performance.now();
        const ms = now - start;
        if (reply.status === 200 && reply.json?.saved === true) {
          t.latencies.push(ms);
          onTimeline(t, start, ms);
          t.fromSent.accepted.push(now - (reply.sentAt ?? start));
          if (seq > ackedSeq[i]!) {
            ackedSeq[i] = seq;
            ackedAnswered[i] = count;
          }
        } else if (reply.status === 503) {
          t.refused.push(ms);
          t.fromSent.refused.push(now - (reply.sentAt ?? start));
        } else sample(t, `${reply.status} ${JSON.stringify(reply.json).slice(0, 160)}`);
      })
      .catch((error) => failed(t, start, error))
      .finally(() => {
        saving[i] = 0;
        onDone?.();
      });
    return true;
  }

  function sync(i: number, t: Tally, onDone: () => void, dueAt: number) {
    const start = dueAt;
    poolOf(i)
      .send('GET', `/api/examing/get-time?exam_id=${examIds[i]}`, undefined, tokenOf(i), dueAt)
      .then((reply) => {
        const ms = performance.now() - start;
        if (reply.status === 200) {
          t.latencies.push(ms);
          onTimeline(t, start, ms);
        } else if (reply.status === 503) t.refused.push(ms);
        else sample(t, `${reply.status} ${JSON.stringify(reply.json).slice(0, 160)}`);
      })
      .catch((error) => failed(t, start, error))
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
      // A contestant whose start failed has no exam to save or re-sync: left out (counted apart by the benchmark).
      if (examIds[i] === 0) continue;
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
    const done = () => void (inFlight -= 1);
    await new Promise<void>((resolve) => {
      const t0 = performance.now();
      for (const t of [saves, syncs]) t.timeline = { t0, answered: [], over100: [] };
      let next = 0;
      const tick = setInterval(() => {
        const now = performance.now() - t0;
        while (next < order.length && times[order[next]!]! <= now) {
          const k = order[next++]!;
          late = Math.max(late, now - times[k]!);
          const i = whats[k]! >> 1;
          const dueAt = t0 + times[k]!;
          if (whats[k]! & 1) {
            inFlight += 1;
            sync(i, syncs, done, dueAt);
          } else if (save(i, saves, done, dueAt)) inFlight += 1;
          else skipped += 1;
        }
        if (next >= order.length && inFlight === 0) {
          clearInterval(tick);
          resolve();
        }
      }, 2);
    });
    return { saves, syncs, skipped, lateMs: late, connections: takeConnectionEvents() };
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

  /**
   * Open loop at a fixed rate of saves, over the contestants in turn (one skipped while its save is
   * unanswered). lateMs: how far behind its schedule this process sent (its own CPU, when it cannot
   * keep up with the rate; that lateness counts in the latencies, as for a request kept waiting).
   */
  async function overload(count: number, seconds: number, savesPerSecond: number) {
    const saves = tally();
    let sent = 0;
    let skipped = 0;
    let inFlight = 0;
    let cursor = 0;
    let late = 0;
    await new Promise<void>((resolve) => {
      const t0 = performance.now();
      const tick = setInterval(() => {
        const elapsed = performance.now() - t0;
        const due = Math.min(seconds * 1000, elapsed) * (savesPerSecond / 1000);
        while (sent < due) {
          const dueAt = t0 + (sent * 1000) / savesPerSecond;
          late = Math.max(late, performance.now() - dueAt);
          sent += 1;
          let tries = 0;
          while (tries < count && !save(cursor++ % count, saves, () => void (inFlight -= 1), dueAt)) tries += 1;
          if (tries < count) inFlight += 1;
          else skipped += 1;
        }
        if (elapsed >= seconds * 1000 && inFlight === 0) {
          clearInterval(tick);
          resolve();
        }
      }, 2);
    });
    return { saves, sent, skipped, lateMs: late, connections: takeConnectionEvents() };
  }

  process.on('message', async (command: Command) => {
    let result: unknown;
    if (command.type === 'add') {
      examIds.set(command.examIds, command.from);
      paperOf.set(command.papers, command.from);
      command.slugs.forEach((slug, k) => (slugs[command.from + k] = slug));
      result = {};
    } else if (command.type === 'held') result = await held(command.count, command.seconds, command.saveEveryMs, command.syncEveryMs);
    else if (command.type === 'saturate') result = await saturate(command.count, command.seconds, command.concurrency);
    else if (command.type === 'widen') {
      await Promise.all(pools.map((pool) => pool.widen(command.connections, 64)));
      result = { connections: pools.map((pool) => pool.size) };
    } else if (command.type === 'overload') result = await overload(command.count, command.seconds, command.savesPerSecond);
    else result = { ackedSeq, ackedAnswered };
    process.send!(result);
  });
  // Ready once every connection is open, so that no phase measures their opening.
  void opened.then(() => process.send!('ready'));
}

/** Started by the benchmark (startLoadGenerator in bench-exam.ts): its set-up is the first message. */
export const GENERATOR_FLAG = '--bench-exam-load-generator';
if (process.argv.includes(GENERATOR_FLAG) && process.send) process.once('message', (setup: LoadSetup) => runGenerator(setup));
