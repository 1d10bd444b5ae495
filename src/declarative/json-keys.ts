/**
 * Whether a JSON text repeats a key inside one object, comparing keys as JSON reads them
 * (`"eng"` and `"\u0065ng"` are one key). `JSON.parse` silently keeps the last one, which
 * would make a guardrail vanish; the loader's JSON fast path uses this to fall back to the
 * YAML parser, which reports the duplicate with its position.
 */
export function hasDuplicateKey(text: string): boolean {
  // One Set per open object, null per open array.
  const stack: Array<Set<string> | null> = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i + 1;
      let escaped = false;
      for (i = start; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c /* \ */ && !escaped) escaped = true;
        else if (d === 0x22 && !escaped) break;
        else escaped = false;
      }
      const top = stack[stack.length - 1];
      if (expectKey && top) {
        const key = decodeKey(text.slice(start, i));
        if (top.has(key)) return true;
        top.add(key);
      }
      expectKey = false;
    } else if (c === 0x7b /* { */) {
      stack.push(new Set());
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      stack.push(null);
      expectKey = false;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
      expectKey = false;
    } else if (c === 0x2c /* , */) {
      expectKey = stack[stack.length - 1] instanceof Set;
    }
  }
  return false;
}

/** A key as JSON reads it: escapes decoded (issue 24, finding 12). Text that is not a valid string stays as written; JSON.parse then rejects the file. */
function decodeKey(raw: string): string {
  if (!raw.includes("\\")) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
