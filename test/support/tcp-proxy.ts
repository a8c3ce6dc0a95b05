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
  close(): Promise<void>;
};

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };

  const server: Server = createServer((client) => {
    const upstream = connect({ host: target.host, port: target.port });
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
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
      for (const socket of sockets) socket.destroy();
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
