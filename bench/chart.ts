/** A small log-log SVG chart: API calls against N, per setup and operation. */

interface Point {
  setup: string;
  n: number;
  op: string;
  calls: number;
}

const COLORS: Record<string, string> = { create: "#1f77b4", refresh: "#d62728", destroy: "#2ca02c" };

export function renderChart(rows: Point[], sizes: number[]): string {
  const W = 640,
    H = 400,
    L = 70,
    B = 50,
    T = 30,
    R = 170;
  const series = rows.filter((r) => r.op in COLORS && r.calls > 0);
  const maxCalls = Math.max(10, ...series.map((r) => r.calls));
  const x = (n: number) =>
    L +
    ((Math.log10(n) - Math.log10(Math.min(...sizes))) /
      Math.max(1e-9, Math.log10(Math.max(...sizes)) - Math.log10(Math.min(...sizes)))) *
      (W - L - R);
  const y = (c: number) => H - B - (Math.log10(Math.max(1, c)) / Math.log10(maxCalls)) * (H - B - T);
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${L}" y="18" font-size="14">API calls against N (log-log)</text>`,
    `<line x1="${L}" y1="${H - B}" x2="${W - R}" y2="${H - B}" stroke="black"/>`,
    `<line x1="${L}" y1="${T}" x2="${L}" y2="${H - B}" stroke="black"/>`,
    ...sizes.map((n) => `<text x="${x(n)}" y="${H - B + 18}" text-anchor="middle">${n.toLocaleString("en")}</text>`),
    ...[1, 10, 100, 1000, 10000, 100000, 1000000]
      .filter((c) => c <= maxCalls)
      .map((c) => `<text x="${L - 8}" y="${y(c) + 4}" text-anchor="end">${c.toLocaleString("en")}</text>`),
    `<text x="${(L + W - R) / 2}" y="${H - 10}" text-anchor="middle">members (N)</text>`,
  ];
  let legend = 0;
  for (const op of Object.keys(COLORS)) {
    for (const setup of ["set", "per-member"]) {
      const pts = series.filter((r) => r.op === op && r.setup === setup).sort((a, b) => a.n - b.n);
      if (pts.length === 0) continue;
      const dash = setup === "set" ? "" : ` stroke-dasharray="6 4"`;
      parts.push(
        `<polyline fill="none" stroke="${COLORS[op]}" stroke-width="2"${dash} points="${pts.map((p) => `${x(p.n).toFixed(1)},${y(p.calls).toFixed(1)}`).join(" ")}"/>`,
      );
      for (const p of pts)
        parts.push(`<circle cx="${x(p.n).toFixed(1)}" cy="${y(p.calls).toFixed(1)}" r="3" fill="${COLORS[op]}"/>`);
      const ly = T + 10 + legend++ * 18;
      parts.push(
        `<line x1="${W - R + 15}" y1="${ly}" x2="${W - R + 45}" y2="${ly}" stroke="${COLORS[op]}" stroke-width="2"${dash}/>`,
        `<text x="${W - R + 50}" y="${ly + 4}">${setup}: ${op}</text>`,
      );
    }
  }
  parts.push("</svg>");
  return parts.join("\n");
}
