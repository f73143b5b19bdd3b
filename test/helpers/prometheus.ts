// A strict reader of the Prometheus text exposition format (version 0.0.4): every line is a comment
// (`# HELP`, `# TYPE`) or a sample `name{label="value",…} number`; anything else fails the test.
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(,|$)/y;

function parseLabels(text: string, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const m = LABEL.exec(text);
    if (!m) throw new Error(`bad labels in: ${line}`);
    labels[m[1]!] = m[2]!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
  }
  return labels;
}

function parseValue(text: string, line: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  // Prometheus parses values with Go's ParseFloat, where NaN is case-insensitive (prom-client writes `Nan`).
  if (text.toLowerCase() === 'nan') return Number.NaN;
  const v = Number(text);
  if (text.trim() === '' || Number.isNaN(v)) throw new Error(`bad value in: ${line}`);
  return v;
}

/** The samples of an exposition, with the declared type of each family. */
export function parsePrometheus(body: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  if (!body.endsWith('\n')) throw new Error('the exposition must end with a newline');
  for (const line of body.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      if (!NAME.test(line.split(' ')[2] ?? '')) throw new Error(`bad HELP: ${line}`);
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      if (!name || !NAME.test(name) || !['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(type ?? '')) throw new Error(`bad TYPE: ${line}`);
      if (types.has(name)) throw new Error(`family declared twice: ${name}`);
      types.set(name, type!);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`not a sample: ${line}`);
    samples.push({ name: m[1]!, labels: m[2] ? parseLabels(m[2], line) : {}, value: parseValue(m[3]!, line) });
  }
  return { samples, types };
}

/** The value of the one sample named `name` whose labels include `labels`; undefined when none. */
export function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}
