// A gzipped ustar archive written byte by byte, not by `tar`, so the same inputs give the same
// bytes on every machine: no owner, no clock (every mtime is 1985-10-26, as in npm's own
// tarballs), files in the order given. Used by scripts/plugin-pack.mjs for the plugin tarballs.
import { gzipSync } from "node:zlib";

/** One ustar header block for a regular file. */
function header(name, mode, size) {
  const block = Buffer.alloc(512);
  const put = (offset, length, text) => block.write(text, offset, length, "ascii");
  const octal = (offset, length, value) => put(offset, length, `${value.toString(8).padStart(length - 1, "0")}\0`);
  put(0, 100, name);
  octal(100, 8, mode);
  octal(108, 8, 0); // uid
  octal(116, 8, 0); // gid
  octal(124, 12, size);
  octal(136, 12, 499_162_500); // mtime: 1985-10-26, so the bytes never depend on the clock
  put(156, 1, "0"); // a regular file
  put(257, 8, "ustar\u000000");
  block.fill(0x20, 148, 156); // the checksum counts its own field as spaces
  let sum = 0;
  for (const byte of block) sum += byte;
  put(148, 8, `${sum.toString(8).padStart(6, "0")}\0 `);
  return block;
}

/**
 * The gzipped archive of `files`, each `[name, mode, bytes]`, at its root.
 * @param {Array<[string, number, Buffer]>} files
 * @param {number} [level] gzip's level (9 by default)
 */
export function tarGz(files, level = 9) {
  const blocks = [];
  for (const [name, mode, data] of files)
    blocks.push(header(name, mode, data.length), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  blocks.push(Buffer.alloc(1024)); // two empty blocks end the archive
  return gzipSync(Buffer.concat(blocks), { level });
}
