// Keeps one PlateReader running for each device whose plate reader is switched on and that has a
// stream or file; restarted with new settings on every device change.
import { join } from 'node:path';
import type { SourceSpec } from '../devices/index.js';
import type { PlateReaderConfig } from '../plate-settings/index.js';
import { PlateReader, type PlateReaderDeps } from './plate-reader.js';

export class PlateReaders {
  private readonly readers = new Map<string, PlateReader>();

  constructor(
    private readonly deps: Omit<PlateReaderDeps, 'workDir'> & { workRoot: string },
    private readonly deviceIds: () => Promise<string[]>,
    private readonly load: (id: string) => Promise<{ source: SourceSpec | null; config: PlateReaderConfig } | null>,
  ) {}

  async startAll(): Promise<void> {
    for (const id of await this.deviceIds()) await this.refresh(id);
  }

  async refresh(deviceId: string): Promise<void> {
    await this.stop(deviceId);
    const loaded = await this.load(deviceId);
    if (!loaded?.source || !loaded.config.enabled) return;
    const reader = new PlateReader(deviceId, loaded.source, loaded.config, { ...this.deps, workDir: join(this.deps.workRoot, deviceId) });
    this.readers.set(deviceId, reader);
    reader.start();
  }

  async stop(deviceId: string): Promise<void> {
    const r = this.readers.get(deviceId);
    if (!r) return;
    this.readers.delete(deviceId);
    await r.stop();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.readers.keys()].map((id) => this.stop(id)));
  }

  running(): { deviceId: string; framesRead: number; vehiclesStored: number }[] {
    return [...this.readers.values()].map((r) => ({ deviceId: r.deviceId, framesRead: r.framesRead, vehiclesStored: r.vehiclesStored }));
  }
}
