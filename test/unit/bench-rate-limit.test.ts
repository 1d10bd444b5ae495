/**
 * The 429 bench's measure of "the budget backs off" (bench/rate-limit.ts): a call that reached
 * the emulator inside a 429's Retry-After pause counts; one sent before the 429 came back
 * (arriving at once) and one after the pause do not.
 */
import { describe, expect, it } from "vitest";
import { callsInPause } from "../../bench/rate-limit";
import type { LogEntry } from "../../emulator/request-log";

const call = (receivedAt: number, status = 200, delayedMs = 100) =>
  ({ operation: "x", method: "GET", path: "/p", query: "", status, receivedAt, delayedMs }) as unknown as LogEntry;

describe("bench/rate-limit.ts callsInPause", () => {
  it("counts only the calls that arrived inside a pause", () => {
    // A 429 received at 1,000, answered at 1,100 (100 ms latency): the pause runs to 2,100.
    const limited = call(1_000, 429);
    expect(callsInPause([limited, call(1_005), call(1_400), call(2_200)], 1_000)).toBe(1);
    expect(callsInPause([limited, call(1_360), call(1_900)], 1_000)).toBe(2);
    // At the edges: lag after the answer, and the last 150 ms of the pause, do not count.
    expect(callsInPause([limited, call(1_350), call(1_960)], 1_000)).toBe(0);
    expect(callsInPause([call(1_000), call(1_500)], 1_000)).toBe(0);
  });
});
