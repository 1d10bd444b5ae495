/** Reading and writing JSON over node:http, with the contract's error body and a body cap. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "./http-error";

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendError(res: ServerResponse, err: HttpError): void {
  sendJson(res, err.status, { error: { code: err.status, message: err.message, metadata: err.metadata } }, err.headers);
}

/** Reads a JSON body, capped at `limit` bytes (413 past it). */
export async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = req.headers["content-type"] ?? "";
  const text = await drain(req, limit);
  if (text.length === 0) throw new HttpError(400, "request body is required (JSON)");
  if (!/^application\/json\b/i.test(type))
    throw new HttpError(400, `Content-Type must be application/json (got "${type.slice(0, 80)}")`);
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "request body is not valid JSON");
  }
}

export function drain(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new HttpError(413, `request body exceeds ${limit} bytes`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
