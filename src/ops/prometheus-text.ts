/**
 * Prometheus text exposition format 0.0.4: counters, gauges and histograms
 * with labels. Pure rendering; the registry in `metrics.ts` holds the values.
 */

/** Labels of one sample. */
export type Labels = Readonly<Record<string, string>>;

/** A rendered metric family. */
export interface Family {
  name: string;
  help: string;
  type: "counter" | "gauge" | "histogram";
  samples: { labels: Labels; value: number; suffix?: string }[];
}

/** Renders families in order. */
export function renderPrometheus(families: readonly Family[]): string {
  const out: string[] = [];
  for (const f of families) {
    out.push(`# HELP ${f.name} ${f.help.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")}`);
    out.push(`# TYPE ${f.name} ${f.type}`);
    for (const s of f.samples) out.push(`${f.name}${s.suffix ?? ""}${labelText(s.labels)} ${num(s.value)}`);
  }
  return out.join("\n") + "\n";
}

/** Stable key of a label set. */
export function labelKey(labels: Labels): string {
  return JSON.stringify(Object.keys(labels).sort().map((k) => [k, labels[k]]));
}

function labelText(labels: Labels): string {
  const keys = Object.keys(labels);
  if (keys.length === 0) return "";
  return `{${keys.map((k) => `${k}="${escape(labels[k]!)}"`).join(",")}}`;
}

function escape(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

function num(v: number): string {
  if (v === Infinity) return "+Inf";
  if (Number.isNaN(v)) return "NaN";
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e9) / 1e9);
}
