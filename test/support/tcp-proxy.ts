// A TCP proxy in front of a real service (Postgres, Redis) that tests can cut and restore, to see the
// service lose a dependency and get it back without restarting anything. Plus a server that accepts
// connections and never answers: a hung dependency.
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export type TcpProxy = {
  readonly port: number;
  /** Connections currently open through the proxy. */
  readonly openConnections: number;
  /** Drops every open connection (both ends) and stops listening: new connections are refused. */
  cut(): Promise<void>;
  /** Listens again on the same port; traffic flows to the target as before. */
  restore(): Promise<void>;
  /**
   * Goes silent without closing anything: bytes either way are dropped, and new connections are
   * accepted and never answered (an overloaded server, a network black hole).
   */
  silence(): void;
  /** Answers new connections again; those that went silent stay silent, as after a black hole. */
  answer(): void;
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  let silent = false;
  const held = new Set<Socket>();
  const server: Server = createServer((client) => {
    if (silent) {
      held.add(client);
      client.on('error', () => {}).once('close', () => held.delete(client));
      return;
    }
    const upstream = connect({ host: target.host, port: target.port });
    track(client);
    track(upstream);
    let heard = true;
    client.on('data', (bytes) => void (silent ? (heard = false) : heard && upstream.write(bytes)));
    upstream.on('data', (bytes) => void (silent ? (heard = false) : heard && client.write(bytes)));
    // Either side failing ends both, as a broken network path would.
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.once('error', end).once('close', end);
    upstream.once('error', end).once('close', end);
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const socket of [...sockets, ...held]) socket.destroy();
    });

  await listen(0);
  const { port } = server.address() as AddressInfo;

  return {
    port,
    get openConnections() {
      // Each proxied connection is two sockets.
      return sockets.size / 2;
    },
    cut: stop,
    restore: () => listen(port),
    silence: () => void (silent = true),
    answer: () => void (silent = false),
    close: stop,
  };
}

/** Accepts TCP connections and never writes a byte: a hung server, for timeout tests. */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** A port nothing listens on: bound by the OS, then released. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
