// What must go when a camera or a project goes. Rows follow by foreign-key cascade; stored objects
// (JPEGs, plate images, rendered media, uploads) do not, so each feature that stores objects registers
// a hook here, and the settings service runs every hook before it deletes the row. A hook must be
// idempotent: a deletion interrupted half-way is simply run again.

export interface DeletedCamera {
  id: string;
  exid: string;
  projectId: string;
}

export interface DeletedProject {
  id: string;
  exid: string;
  /** The project's cameras, whose own hooks run first. */
  cameras: DeletedCamera[];
}

type Hook<T> = { name: string; run: (target: T) => Promise<void> };

export class DeletionHooks {
  private readonly camera: Hook<DeletedCamera>[] = [];
  private readonly project: Hook<DeletedProject>[] = [];

  /** `name` says whose objects these are, for logs. */
  onCameraDelete(name: string, run: (camera: DeletedCamera) => Promise<void>): void {
    this.camera.push({ name, run });
  }

  onProjectDelete(name: string, run: (project: DeletedProject) => Promise<void>): void {
    this.project.push({ name, run });
  }

  /** Runs every camera hook, in registration order; the first failure stops the deletion. */
  async beforeCameraDelete(camera: DeletedCamera): Promise<void> {
    for (const hook of this.camera) await hook.run(camera);
  }

  /** Runs the camera hooks for each of the project's cameras, then the project hooks. */
  async beforeProjectDelete(project: DeletedProject): Promise<void> {
    for (const camera of project.cameras) await this.beforeCameraDelete(camera);
    for (const hook of this.project) await hook.run(project);
  }
}
