/** One sample of the Prometheus text format: `name{label="value",…} number`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/**
 * Parses the Prometheus text exposition format (version 0.0.4) strictly
 * enough for the tests: every line is a comment (`# HELP`, `# TYPE`), empty,
 * or a sample; anything else throws, so a malformed page fails the test.
 */
export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("# HELP ") || line.startsWith("# TYPE ")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.eE+-]+|[nN]a[nN]|\+Inf|-Inf)(?: \d+)?$/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/g)) labels[l[1]!] = l[2]!;
    // Prometheus reads the value as Go's ParseFloat does: "NaN" in any case (prom-client writes "Nan").
    samples.push({ name: m[1]!, labels, value: /^nan$/i.test(m[3]!) ? NaN : Number(m[3]) });
  }
  return samples;
}

/** The sum of every sample of `name` whose labels include `where`. */
export function total(samples: Sample[], name: string, where: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);
}
