// Video walls: a project's grid of live tiles, each showing one of that project's cameras. The layout
// is validated as a whole (grid bounds, one camera per cell, cameras of the wall's project) so a wall
// never points at a camera its viewers cannot see; tiles go with their camera (foreign-key cascade).
import type { PlatformDb } from '../database.js';
import { ApiError, validation } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import * as repo from './video-walls-repository.js';

export const MAX_GRID = 8;

export interface TileInput {
  row: number;
  column: number;
  camera_exid: string;
}

export interface VideoWall {
  id: string;
  name: string;
  project_exid: string;
  rows: number;
  columns: number;
  tiles: { row: number; column: number; camera_exid: string; camera_name: string }[];
  created_by_email: string | null;
  created_at: string;
  updated_at: string;
}

function toWall(w: repo.WallRow, tiles: repo.TileRow[]): VideoWall {
  return {
    id: w.id,
    name: w.name,
    project_exid: w.project_exid,
    rows: w.grid_rows,
    columns: w.grid_columns,
    tiles: tiles
      .filter((t) => t.wall_id === w.id)
      .map((t) => ({ row: t.row_index, column: t.column_index, camera_exid: t.camera_exid, camera_name: t.camera_name })),
    created_by_email: w.created_by_email,
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

export class VideoWallsService {
  constructor(private readonly db: PlatformDb) {}

  /** The walls of the given projects (the caller's visible ones), optionally one project's. */
  async list(projectIds: string[]): Promise<VideoWall[]> {
    const walls = await repo.wallsOfProjects(this.db, projectIds);
    const tiles = await repo.tilesOf(
      this.db,
      walls.map((w) => w.id),
    );
    return walls.map((w) => toWall(w, tiles));
  }

  async get(id: string): Promise<VideoWall> {
    const wall = await repo.wallById(this.db, id);
    if (!wall) throw new ApiError('NOT_FOUND', 'Video wall not found');
    return toWall(wall, await repo.tilesOf(this.db, [wall.id]));
  }

  async create(userId: string, projectId: string, input: { name: string; rows: number; columns: number; tiles?: TileInput[] }): Promise<VideoWall> {
    const now = new Date().toISOString();
    const id = newId();
    const tiles = await this.validateTiles(projectId, input.rows, input.columns, input.tiles ?? []);
    await repo.saveWall(
      this.db,
      {
        id,
        project_id: projectId,
        name: input.name.trim(),
        grid_rows: input.rows,
        grid_columns: input.columns,
        created_by: userId,
        created_at: now,
        updated_at: now,
      },
      tiles,
      true,
    );
    return this.get(id);
  }

  /** Renames, resizes, or replaces the tiles; a resize that would cut off tiles needs new tiles. */
  async update(id: string, input: { name?: string; rows?: number; columns?: number; tiles?: TileInput[] }): Promise<VideoWall> {
    const current = await this.get(id);
    const row = (await repo.wallById(this.db, id))!;
    const rows = input.rows ?? current.rows;
    const columns = input.columns ?? current.columns;
    const next = input.tiles ?? current.tiles.map(({ row: r, column, camera_exid }) => ({ row: r, column, camera_exid }));
    const tiles = await this.validateTiles(row.project_id, rows, columns, next);
    await repo.saveWall(
      this.db,
      { ...row, name: input.name?.trim() ?? row.name, grid_rows: rows, grid_columns: columns, updated_at: new Date().toISOString() },
      tiles,
      false,
    );
    return this.get(id);
  }

  async delete(id: string): Promise<void> {
    const res = await repo.deleteWall(this.db, id);
    if (Number(res.numDeletedRows) === 0) throw new ApiError('NOT_FOUND', 'Video wall not found');
  }

  async projectOf(id: string) {
    return (await repo.projectOfWall(this.db, id)) ?? null;
  }

  private async validateTiles(projectId: string, rows: number, columns: number, tiles: TileInput[]) {
    if (!Number.isInteger(rows) || rows < 1 || rows > MAX_GRID) throw validation('rows', `between 1 and ${MAX_GRID}`);
    if (!Number.isInteger(columns) || columns < 1 || columns > MAX_GRID) throw validation('columns', `between 1 and ${MAX_GRID}`);
    const cameras = await repo.projectCameras(this.db, projectId, [...new Set(tiles.map((t) => t.camera_exid))]);
    const taken = new Set<string>();
    return tiles.map((t, i) => {
      const field = `tiles[${i}]`;
      if (t.row >= rows) throw validation(`${field}.row`, `row ${t.row} is outside the ${rows}-row grid (rows count from 0)`);
      if (t.column >= columns) throw validation(`${field}.column`, `column ${t.column} is outside the ${columns}-column grid (columns count from 0)`);
      const cell = `${t.row}:${t.column}`;
      if (taken.has(cell)) throw validation(field, `cell (${t.row}, ${t.column}) already has a tile`);
      taken.add(cell);
      const cameraId = cameras.get(t.camera_exid);
      if (!cameraId) throw validation(`${field}.camera_exid`, `camera ${t.camera_exid} is not a camera of this wall’s project`);
      return { row_index: t.row, column_index: t.column, camera_id: cameraId };
    });
  }
}
