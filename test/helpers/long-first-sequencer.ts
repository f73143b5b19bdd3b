// Starts the suite's longest files first within their project, so that a group of projects ends on
// short files and no worker idles through another's long tail. Vitest orders by the durations of the
// last run on this machine, or by file size on a fresh clone (CI), where a small file that waits
// two minutes would otherwise start last. A project's files stay together (a worker is reused only
// for the next file of its own project); within a group, the project with the longest file starts
// first, the others in vitest's order.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Files that take 20 s or more on 2 cores, longest first (a JSON report's durations; CONTRIBUTING.md, Test). */
const LONG_FILES = [
  'test/platform/recorder-links/site-link-outage.test.ts',
  'test/recorder/plates/plate-accuracy.test.ts',
  'test/cli/install.test.ts',
  'test/recorder/web-ui/devices-live.test.ts',
  'test/cli/backup-restore.test.ts',
  'test/platform/live-view/live-view.test.ts',
  'test/platform/web-app/recordings.test.ts',
  'test/platform/live-view/live-streams.test.ts',
  'test/mcp/cli.test.ts',
  'test/cli/up-banner.test.ts',
  'test/platform/web-app/live-wall.test.ts',
  'test/platform/web-app/setup-camera.test.ts',
  'test/platform/demo/seed.test.ts',
  'test/recorder/uploads/http-uploads.test.ts',
  'test/platform/web-app/members.test.ts',
  'test/platform/cluster/rolling-restart.test.ts',
  'test/platform/recorder-links/linked-live-on-demand.test.ts',
  'test/platform/key-page/key-page.test.ts',
  'test/platform/live-view/live-view-rtsp.test.ts',
  'test/recorder/kill.test.ts',
];

export class LongFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const i = LONG_FILES.indexOf(relative(spec.project.config.root, spec.moduleId));
      return i === -1 ? LONG_FILES.length : i;
    };
    // Runs of one project (in vitest's order); the long files first inside each, the rest as they were.
    const runs: TestSpecification[][] = [];
    for (const spec of sorted) {
      const run = runs.at(-1);
      if (run && run[0]!.project === spec.project) run.push(spec);
      else runs.push([spec]);
    }
    const longFirst = runs.map((run) =>
      run
        .map((spec, i) => ({ spec, i }))
        .sort((a, b) => rank(a.spec) - rank(b.spec) || a.i - b.i)
        .map(({ spec }) => spec),
    );
    const group = (run: TestSpecification[]) => run[0]!.project.config.sequence.groupOrder;
    return longFirst
      .map((run, i) => ({ run, i }))
      .sort((a, b) => group(a.run) - group(b.run) || rank(a.run[0]!) - rank(b.run[0]!) || a.i - b.i)
      .flatMap(({ run }) => run);
  }
}
