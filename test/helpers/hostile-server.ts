/**
 * A local node:http server on a free port that behaves as badly as a test asks: the double
 * for "a broken or hostile service". Imports nothing from the project.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface HostileServer {
  url: string;
  /** Requests received so far. */
  requests: Array<{ method: string; url: string }>;
  close(): Promise<void>;
}

export async function hostileServer(
  handler: (req: IncomingMessage, res: ServerResponse, n: number) => void,
): Promise<HostileServer> {
  const requests: HostileServer["requests"] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? "", url: req.url ?? "" });
    req.resume();
    handler(req, res, requests.length);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Sends a JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
