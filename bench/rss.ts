/** Peak RSS of the dynamic-provider processes while an operation runs, from /proc (VmHWM). */
import { readdirSync, readFileSync } from "node:fs";

export function watchProviderRss(): { stop(): number } {
  let peakKb = 0;
  const sample = () => {
    for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("dynamic-provider")) continue;
        const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
        if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
      } catch {
        // the process ended between the listing and the read
      }
    }
  };
  const timer = setInterval(sample, 100);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return Math.round(peakKb / 1024);
    },
  };
}
