/**
 * What an executable is, read from its own headers rather than from its name: ELF and its machine,
 * Mach-O and its CPU type, PE and its machine (issue 42's "every plugin archive carries the right
 * executable for its platform"); and whether it is a Node single-executable application, i.e.
 * whether postject put the SEA blob in, as a resource each format's Node looks up: an ELF note
 * named NODE_SEA_BLOB, a Mach-O segment NODE_SEA, a PE resource NODE_SEA_BLOB. Plus the reading
 * of a one-level ustar archive, as scripts/ustar.mjs writes it.
 */
import { gunzipSync } from "node:zlib";

export type Format = "ELF" | "Mach-O" | "PE";
export interface Kind {
  format: Format;
  arch: "x64" | "arm64" | `other ${string}`;
}

const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";
const SEA_RESOURCE = "NODE_SEA_BLOB";

/** The format and architecture of an executable, or undefined when it is none of the three. */
export function executableKind(b: Buffer): Kind | undefined {
  if (b.length >= 64 && b.readUInt32BE(0) === 0x7f454c46) {
    const machine = b.readUInt16LE(0x12);
    return { format: "ELF", arch: machine === 0x3e ? "x64" : machine === 0xb7 ? "arm64" : `other ${machine}` };
  }
  if (b.length >= 32 && b.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = b.readUInt32LE(4);
    return { format: "Mach-O", arch: cpu === 0x01000007 ? "x64" : cpu === 0x0100000c ? "arm64" : `other ${cpu}` };
  }
  if (b.length >= 64 && b.toString("latin1", 0, 2) === "MZ") {
    const pe = b.readUInt32LE(0x3c);
    if (b.toString("latin1", pe, pe + 4) !== "PE\0\0") return undefined;
    const machine = b.readUInt16LE(pe + 4);
    return { format: "PE", arch: machine === 0x8664 ? "x64" : machine === 0xaa64 ? "arm64" : `other ${machine}` };
  }
  return undefined;
}

/** ELF64: a PT_NOTE segment holding a note named NODE_SEA_BLOB (postject's ELF resource). */
function elfNote(b: Buffer): boolean {
  const phoff = Number(b.readBigUInt64LE(0x20));
  const size = b.readUInt16LE(0x36);
  for (let i = 0; i < b.readUInt16LE(0x38); i++) {
    const ph = phoff + i * size;
    if (b.readUInt32LE(ph) !== 4) continue; // PT_NOTE
    let at = Number(b.readBigUInt64LE(ph + 8));
    const end = at + Number(b.readBigUInt64LE(ph + 32));
    while (at + 12 <= end) {
      const [nameSize, descSize] = [b.readUInt32LE(at), b.readUInt32LE(at + 4)];
      if (b.toString("latin1", at + 12, at + 12 + nameSize) === `${SEA_RESOURCE}\0`) return true;
      at += 12 + Math.ceil(nameSize / 4) * 4 + Math.ceil(descSize / 4) * 4;
    }
  }
  return false;
}

/** Mach-O 64: an LC_SEGMENT_64 named NODE_SEA (postject's --macho-segment-name). */
function machoSegment(b: Buffer): boolean {
  let at = 32;
  for (let i = 0; i < b.readUInt32LE(16); i++) {
    const [cmd, size] = [b.readUInt32LE(at), b.readUInt32LE(at + 4)];
    if (cmd === 0x19 && b.toString("latin1", at + 8, at + 24).replace(/\0+$/, "") === "NODE_SEA") return true;
    at += size;
  }
  return false;
}

/** PE: the resource name NODE_SEA_BLOB (UTF-16) inside the .rsrc section. */
function peResource(b: Buffer): boolean {
  const pe = b.readUInt32LE(0x3c);
  const sections = b.readUInt16LE(pe + 6);
  const table = pe + 24 + b.readUInt16LE(pe + 20);
  for (let i = 0; i < sections; i++) {
    const s = table + i * 40;
    if (b.toString("latin1", s, s + 8).replace(/\0+$/, "") !== ".rsrc") continue;
    const start = b.readUInt32LE(s + 20);
    return b.subarray(start, start + b.readUInt32LE(s + 16)).includes(Buffer.from(SEA_RESOURCE, "utf16le"));
  }
  return false;
}

/**
 * Whether `b` is a Node SEA: the fuse flipped to `:1`, the resource where its format keeps it,
 * and `script` (the bundle; the blob holds it verbatim without a code cache) inside.
 */
export function seaFacts(b: Buffer, script: Buffer): { fuse: boolean; resource: boolean; script: boolean } {
  const kind = executableKind(b);
  const resource = kind?.format === "ELF" ? elfNote(b) : kind?.format === "Mach-O" ? machoSegment(b) : peResource(b);
  return { fuse: b.includes(`${SEA_FUSE}:1`), resource: kind !== undefined && resource, script: b.includes(script) };
}

/** The regular files of a gzipped ustar archive: name, mode, bytes, in order. */
export function readTarGz(archive: Buffer): Array<{ name: string; mode: number; data: Buffer; type: string }> {
  const tar = gunzipSync(archive);
  const files = [];
  for (let at = 0; at + 512 <= tar.length; ) {
    const name = tar.toString("utf8", at, at + 100).replace(/\0.*$/s, "");
    if (!name) break;
    const size = Number.parseInt(tar.toString("latin1", at + 124, at + 136), 8);
    const mode = Number.parseInt(tar.toString("latin1", at + 100, at + 108), 8);
    const type = tar.toString("latin1", at + 156, at + 157);
    files.push({ name, mode, type, data: tar.subarray(at + 512, at + 512 + size) });
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}
