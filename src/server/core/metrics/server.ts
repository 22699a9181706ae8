// GET /metrics on a port of its own (METRICS_PORT, bound to METRICS_HOST): a plain node:http
// server, so the public port never serves metrics and a busy app cannot hide them behind its own
// load shedding. Nothing else is answered.
import { createServer, type Server } from 'node:http';

/** Where the text comes from: one process's registry, or the cluster primary's aggregate. */
export interface MetricsSource {
  contentType: string;
  metrics(): Promise<string>;
}

export interface MetricsServer {
  /** The port it listens on (the one asked for, or the one the system chose). */
  port: number;
  close(): Promise<void>;
}

/** Starts the metrics server; undefined when port is 0 (no metrics served). */
export async function startMetricsServer(
  { port, host }: { port: number; host: string },
  source: MetricsSource,
  onError: (error: unknown) => void = () => {},
): Promise<MetricsServer | undefined> {
  if (port === 0) return undefined;
  const server: Server = createServer((request, response) => {
    if (request.url?.split('?')[0] !== '/metrics') return void response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
    if (request.method !== 'GET') return void response.writeHead(405, { allow: 'GET', 'content-type': 'text/plain' }).end('Method not allowed\n');
    source.metrics().then(
      (text) => response.writeHead(200, { 'content-type': source.contentType, 'cache-control': 'no-store' }).end(text),
      (error: unknown) => {
        onError(error);
        response.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics unavailable\n');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', onError);
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
