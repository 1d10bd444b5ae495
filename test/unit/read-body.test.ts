/**
 * The response body cap, proven at the unit level (issue 31): a body announced or counted past
 * the cap costs at most the cap in memory, its stream is destroyed (the connection closed), and a
 * body at or under the cap comes back whole and not marked truncated.
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readCapped } from "../../src/core/client/read-body";

/** A body of `chunks`, counting how many of them the reader pulled. */
function body(chunks: Array<Buffer | Uint8Array>) {
  const seen = { pulled: 0 };
  const stream = Readable.from(
    (function* () {
      for (const c of chunks) {
        seen.pulled++;
        yield c;
      }
    })(),
  );
  return { stream, seen };
}

/** A body that never ends: a server streaming forever. */
function endless() {
  return Readable.from(
    (function* () {
      for (;;) yield Buffer.from("0123456789");
    })(),
  );
}

describe("readCapped: a body under the cap", () => {
  it("comes back whole across chunks, not truncated, without an announced size when none was sent", async () => {
    const { stream } = body([Buffer.from("hello "), Buffer.from("world")]);
    const read = await readCapped(stream, 100);
    expect(read).toStrictEqual({ text: "hello world", truncated: false });
    expect("announced" in read).toBe(false);
  });

  it("is read whole when exactly the cap, counted or announced", async () => {
    expect(await readCapped(body([Buffer.from("abc"), Buffer.from("de")]).stream, 5)).toStrictEqual({
      text: "abcde",
      truncated: false,
    });
    expect(await readCapped(body([Buffer.from("abcde")]).stream, 5, "5")).toStrictEqual({
      text: "abcde",
      truncated: false,
      announced: 5,
    });
  });

  it("reads Uint8Array chunks as well as Buffers", async () => {
    const { stream } = body([new TextEncoder().encode("é€"), Buffer.from("!")]);
    expect(await readCapped(stream, 100)).toStrictEqual({ text: "é€!", truncated: false });
  });

  it("keeps the size a server announced, trimmed, the first of repeated headers", async () => {
    expect((await readCapped(body([Buffer.from("ab")]).stream, 10, " 2 ")).announced).toBe(2);
    expect((await readCapped(body([Buffer.from("ab")]).stream, 10, ["2", "999"])).announced).toBe(2);
  });

  it("ignores a content-length that is not a whole number of bytes", async () => {
    for (const header of ["", "abc", "-1", "1.5", "2x", "x2", "1e3"]) {
      const read = await readCapped(body([Buffer.from("ab")]).stream, 10, header);
      expect(read, JSON.stringify(header)).toStrictEqual({ text: "ab", truncated: false });
    }
  });

  it("ignores a content-length that is not a number, even when its digits would exceed the cap", async () => {
    const read = await readCapped(body([Buffer.from("ab")]).stream, 10, "x999");
    expect(read).toStrictEqual({ text: "ab", truncated: false });
  });
});

describe("readCapped: a body past the cap", () => {
  it("announced past the cap: nothing is read and the stream is destroyed", async () => {
    const { stream, seen } = body([Buffer.from("0123456789")]);
    const read = await readCapped(stream, 5, "6");
    expect(read).toStrictEqual({ text: "", truncated: true, announced: 6 });
    expect(stream.destroyed).toBe(true);
    expect(seen.pulled).toBe(0);
  });

  it("announced past the cap in several digits: nothing is read", async () => {
    const { stream, seen } = body([Buffer.from("0123456789")]);
    expect(await readCapped(stream, 99, "100")).toStrictEqual({ text: "", truncated: true, announced: 100 });
    expect(seen.pulled).toBe(0);
  });

  it("counted past the cap: the first `limit` bytes, truncated, the stream destroyed", async () => {
    const { stream } = body([Buffer.from("abc"), Buffer.from("defgh"), Buffer.from("ijk")]);
    const read = await readCapped(stream, 5);
    expect(read).toStrictEqual({ text: "abcde", truncated: true });
    expect(stream.destroyed).toBe(true);
  });

  it("a body longer than it announced is still cut at the cap", async () => {
    const { stream } = body([Buffer.from("abcdefgh")]);
    expect(await readCapped(stream, 5, "3")).toStrictEqual({ text: "abcde", truncated: true, announced: 3 });
    expect(stream.destroyed).toBe(true);
  });

  it("one byte past the cap is truncated", async () => {
    expect(await readCapped(body([Buffer.from("abcdef")]).stream, 5)).toStrictEqual({
      text: "abcde",
      truncated: true,
    });
  });

  it("an endless body ends at the cap", async () => {
    const stream = endless();
    expect(await readCapped(stream, 25)).toStrictEqual({ text: "0123456789012345678901234", truncated: true });
    expect(stream.destroyed).toBe(true);
  });
});
