/**
 * A local node:http server on a free port that records every request whole (method, URL and
 * JSON body) and answers with what the test's handler returns: the double for checking what a
 * client sends. Imports nothing from the project.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One request as it arrived. */
export interface Recorded {
  method: string;
  url: string;
  /** The parsed JSON body; `undefined` when none came. */
  body: unknown;
}

/** What the handler answers: a status and a JSON body, or a raw text body. */
export type Answer = { status: number; body?: unknown; raw?: string };

export interface RecordingServer {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

export async function recordingServer(handler: (req: Recorded) => Answer): Promise<RecordingServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const rec = { method: req.method ?? "", url: req.url ?? "", body: text ? JSON.parse(text) : undefined };
      requests.push(rec);
      const answer = handler(rec);
      const out = answer.raw ?? (answer.body === undefined ? "" : JSON.stringify(answer.body));
      res.writeHead(answer.status, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
      res.end(out);
    });
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
