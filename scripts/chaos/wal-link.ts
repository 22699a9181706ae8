// The link between a primary and its standby in the failover drill, when it is slow: a loopback
// TCP relay that hands the standby what the primary sends `delayMs` later (WAL waiting on a busy
// or distant link, or a standby that fell behind), and passes the standby's replies (its flush
// position, which a synchronous primary waits for) at once. cut() is the primary's machine dying:
// what the link still holds never arrives.
import { createServer, connect, type Socket } from 'node:net';

export interface WalLink {
  port: number;
  cut(): void;
}

export async function startWalLink(primaryPort: number, delayMs: number): Promise<WalLink> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let cut = false;
  const server = createServer((standby) => {
    const primary = connect(primaryPort, '127.0.0.1');
    for (const socket of [standby, primary]) {
      // Without it, Nagle's algorithm holds a small write until the previous one is acknowledged,
      // and the receiver delays that acknowledgement (40 ms on Linux): a 20 ms link measured 65 ms
      // a commit. PostgreSQL sets TCP_NODELAY on its own sockets.
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        standby.destroy();
        primary.destroy();
      });
    }
    standby.on('data', (chunk) => primary.write(chunk));
    // Timers of one length fire in the order they were set, so the stream keeps its order.
    primary.on('data', (chunk) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        if (!cut) standby.write(chunk);
      }, delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    cut() {
      cut = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
