/**
 * Starts the built `guardrails-emulator` binary as a child process on a free port and reads
 * its URL from the first stdout line. Imports nothing from the project, so conformance tests
 * that use it judge the emulator from the outside.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";

/** The repository root, from the TS sources or from their build under dist/. */
export const REPO_ROOT = resolve(__dirname, "..").replace(/\/dist$/, "");
export const EMULATOR_BIN = resolve(REPO_ROOT, "dist/emulator/cli.js");

export interface SpawnedEmulator {
  url: string;
  api: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

export async function spawnEmulator(args: string[] = []): Promise<SpawnedEmulator> {
  const child = spawn(process.execPath, [EMULATOR_BIN, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator did not start: ${out}`)), 15_000);
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/[^\s)]+/.exec(out.split("\n")[0] ?? "");
      if (m && out.includes("\n")) {
        clearTimeout(timer);
        resolveUrl(m[0]);
      }
    });
    child.once("exit", (code) => reject(new Error(`emulator exited ${code}: ${out}`)));
  });
  return {
    url,
    api: `${url}/api/v1`,
    child,
    output: () => out,
    stop: () =>
      new Promise((r) => {
        if (child.exitCode !== null) return r();
        child.once("exit", () => r());
        child.kill("SIGTERM");
      }),
  };
}

/** The header the emulator's admin endpoints require (emulator/admin.ts); repeated here so this file imports nothing. */
export const ADMIN_HEADERS = { "x-guardrails-emulator": "1" } as const;

/** An answer of `http`: its status, its JSON body (or text), its headers. */
// Spelled out: an inferred type names undici-types by the path a symlinked node_modules resolves to.
export interface HttpAnswer {
  status: number;
  body: any;
  headers: Headers;
}

/**
 * A tiny JSON-over-HTTP helper with a bearer key. Calls to the emulator's admin endpoints
 * (`/__emulator/...`) get the admin header, and a `{}` body when a change has none, so callers
 * need not know the admin rules; tests of those rules use `fetch` directly.
 */
export function http(
  base: string,
  key?: string,
): (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<HttpAnswer> {
  return async (method, path, body, headers = {}) => {
    const admin = path.startsWith("/__emulator/");
    const payload = body === undefined && admin && method !== "GET" ? {} : body;
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(payload === undefined ? {} : { "content-type": "application/json" }),
        ...(admin ? ADMIN_HEADERS : {}),
        ...headers,
      },
      ...(payload === undefined ? {} : { body: typeof payload === "string" ? payload : JSON.stringify(payload) }),
    });
    const text = await res.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    return { status: res.status, body: json, headers: res.headers };
  };
}
