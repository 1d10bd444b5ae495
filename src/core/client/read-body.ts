/**
 * Reads a response body while counting bytes, and stops at a cap: a huge or endless body
 * costs at most the cap in memory, never the whole body (and never once per attempt).
 */

/** What `readCapped` answers: the text read, and whether the cap cut it short. */
export interface CappedBody {
  text: string;
  truncated: boolean;
  /** Bytes announced by `content-length`, when the server sent one. */
  announced?: number;
}

interface BodyStream extends AsyncIterable<Buffer | Uint8Array> {
  destroy(err?: Error): unknown;
}

/**
 * Reads at most `limit` bytes of `body`. Past the cap (announced or counted) the stream is
 * destroyed, which closes the connection, and `truncated` is set.
 */
export async function readCapped(
  body: BodyStream,
  limit: number,
  contentLength?: string | string[],
): Promise<CappedBody> {
  const raw = Array.isArray(contentLength) ? contentLength[0] : contentLength;
  // Number() ignores the blanks around the digits itself.
  const announced = raw !== undefined && /^\d+$/.test(raw.trim()) ? Number(raw) : undefined;
  const extra = announced === undefined ? {} : { announced };
  if (announced !== undefined && announced > limit) {
    body.destroy();
    return { text: "", truncated: true, ...extra };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
    if (size + buf.length > limit) {
      chunks.push(buf.subarray(0, limit - size));
      body.destroy();
      return { text: Buffer.concat(chunks).toString("utf8"), truncated: true, ...extra };
    }
    chunks.push(buf);
    size += buf.length;
  }
  return { text: Buffer.concat(chunks).toString("utf8"), truncated: false, ...extra };
}
