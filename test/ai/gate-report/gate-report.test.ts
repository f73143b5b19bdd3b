// The gate report end to end: plate reads pushed to the main API for a day with known visits (a repeat,
// a missed exit, a misread plate later corrected, a visit across midnight, a vehicle still on site, a
// read on a camera that is no gate), read by the AI API with the person's JWT: visits, dwell times and
// counts exact, the CSV parsed back equal to the JSON, and bad input refused.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAiApp } from '../../../src/ai/app.js';
import { buildTestPlatform, type Person, type TestPlatform } from '../../helpers/platform.js';
import { ingest, ingestionToken } from '../../platform/anpr/anpr-helpers.js';

let tp: TestPlatform;
let ai: FastifyInstance;
let owner: Person;
let project: string;
const cams: Record<'in' | 'out' | 'yard', string> = { in: '', out: '', yard: '' };
let misreadId = '';

const at = (t: string) => (t.includes('T') ? t : `2026-11-20T${t}:00.000Z`);

beforeAll(async () => {
  tp = await buildTestPlatform();
  const apiUrl = await tp.app.listen({ host: '127.0.0.1', port: 0 });
  ai = await buildAiApp({ apiUrl, logger: false });
  owner = await tp.person('owner');
  project = (await tp.project(owner, 'Depot')).exid;
  const tokens: Record<string, string> = {};
  for (const k of ['in', 'out', 'yard'] as const) {
    cams[k] = (await tp.camera(owner, project, `Gate ${k}`)).exid;
    tokens[k] = (await ingestionToken(tp, owner, cams[k])).token;
  }
  for (const [k, role] of [
    ['in', 'entry'],
    ['out', 'exit'],
  ] as const) {
    const res = await tp.app.inject({ method: 'PUT', url: `/v2/cameras/${cams[k]}/anpr/gate`, headers: owner.auth, payload: { role } });
    expect(res.statusCode).toBe(200);
  }
  for (const [plate, label] of [
    ['AB12CDE', 'Concrete Co'],
    ['XY34FGH', 'Steel Ltd'],
  ]) {
    await tp.app.inject({ method: 'POST', url: `/v2/projects/${project}/anpr/watchlist`, headers: owner.auth, payload: { plate, label } });
  }
  const push = async (cam: 'in' | 'out' | 'yard', plate: string, time: string) =>
    (await ingest(tp, cams[cam], tokens[cam] ?? '', { plate_number: plate, capture_time: at(time) })).id as string;
  await push('in', 'CD12 EFG', '2026-11-19T23:30:00.000Z');
  await push('out', 'CD12 EFG', '00:30');
  await push('out', 'QR78 STU', '06:30');
  await push('in', 'AB12 CDE', '07:05');
  // The same passage read again half a minute later: a repeat.
  await push('in', 'AB12 CDE', '2026-11-20T07:05:30.000Z');
  await push('in', 'XY34 FGH', '07:40');
  await push('in', 'LM56 NOP', '08:00');
  await push('out', 'AB12 CDE', '09:35');
  misreadId = await push('out', 'LM56 N0P', '10:00');
  await push('in', 'XY34 FGH', '11:10');
  await push('yard', 'ZZ99 ZZZ', '11:30');
  await push('out', 'XY34 FGH', '12:00');
  await push('in', 'VW90 XYZ', '16:00');
});
afterAll(async () => {
  await ai?.close();
  await tp?.close();
});

const get = (url: string, headers: Record<string, string> = owner.auth) => ai.inject({ method: 'GET', url, headers });
const day = () => get(`/projects/${project}/gate-report/days/2026-11-20?time_zone=UTC`);

/** RFC 4180 rows of a CSV text. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('gate report', () => {
  it('before the correction: the misread exit is unmatched and its vehicle still on site', async () => {
    const res = await day();
    expect(res.statusCode, res.body).toBe(200);
    const r = res.json();
    expect(r.unmatched_exits.map((m: { plate: string }) => m.plate)).toEqual(['QR78STU', 'LM56N0P']);
    expect(r.on_site.map((m: { plate: string }) => m.plate)).toEqual(['LM56NOP', 'VW90XYZ']);
    expect(r.totals.visits).toBe(3);
  });

  it('after the correction: visits, dwell times and counts exact, the correction named with who made it', async () => {
    const fix = await tp.app.inject({
      method: 'POST',
      url: `/v2/cameras/${cams.out}/anpr/${misreadId}/corrections`,
      headers: owner.auth,
      payload: { plate: 'LM56NOP' },
    });
    expect(fix.statusCode, fix.body).toBe(201);
    const r = (await day()).json();
    expect(r).toMatchObject({ project, from: '2026-11-20T00:00:00.000Z', to: '2026-11-21T00:00:00.000Z', time_zone: 'UTC' });
    expect(r.visits.map((v: Record<string, unknown>) => [v.plate, v.vendor, v.entry_at, v.exit_at, v.dwell_seconds])).toEqual([
      ['CD12EFG', null, '2026-11-19T23:30:00.000Z', at('00:30'), 3600],
      ['AB12CDE', 'Concrete Co', at('07:05'), at('09:35'), 9000],
      ['LM56NOP', null, at('08:00'), at('10:00'), 7200],
      ['XY34FGH', 'Steel Ltd', at('11:10'), at('12:00'), 3000],
    ]);
    expect(r.visits[2].corrections).toEqual([expect.objectContaining({ event_id: misreadId, plate_before: 'LM56N0P', corrected_by: owner.email })]);
    expect(r.visits[1]).toMatchObject({ entry_camera: cams.in, exit_camera: cams.out });
    expect(r.unmatched_entries.map((m: Record<string, unknown>) => [m.plate, m.at, m.vendor])).toEqual([['XY34FGH', at('07:40'), 'Steel Ltd']]);
    expect(r.unmatched_exits.map((m: Record<string, unknown>) => [m.plate, m.at])).toEqual([['QR78STU', at('06:30')]]);
    expect(r.on_site.map((m: Record<string, unknown>) => [m.plate, m.at])).toEqual([['VW90XYZ', at('16:00')]]);
    expect(r.totals).toEqual({ entries: 5, exits: 5, visits: 4, unmatched_entries: 1, unmatched_exits: 1, on_site: 1, mean_dwell_seconds: 5700 });
    // The yard camera is no gate: its reads are not even fetched.
    expect(r.ignored_reads).toEqual({ not_a_gate: 0, no_direction: 0, repeats: 1 });
    expect(JSON.stringify(r)).not.toContain('ZZ99ZZZ');
    const hours = Object.fromEntries(
      r.per_hour.filter((h: { entries: number; exits: number }) => h.entries || h.exits).map((h: { hour: number }) => [h.hour, h]),
    );
    expect(Object.keys(hours).map(Number)).toEqual([0, 6, 7, 8, 9, 10, 11, 12, 16]);
    expect(hours[7]).toEqual({ hour: 7, entries: 2, exits: 0 });
    expect(hours[11]).toEqual({ hour: 11, entries: 1, exits: 0 });
    expect(hours[12]).toEqual({ hour: 12, entries: 0, exits: 1 });
    expect(r.per_vendor).toEqual([
      { vendor: 'Concrete Co', entries: 1, exits: 1, visits: 1, mean_dwell_seconds: 9000 },
      { vendor: 'Steel Ltd', entries: 2, exits: 1, visits: 1, mean_dwell_seconds: 3000 },
      { vendor: null, entries: 2, exits: 3, visits: 2, mean_dwell_seconds: 5400 },
    ]);
    expect(r.per_day).toEqual([{ date: '2026-11-20', entries: 5, exits: 5, visits: 4 }]);
  });

  it('a range report over two days, and its CSV parsed back equal to the JSON', async () => {
    const q = `from=2026-11-19T00:00:00Z&to=2026-11-21T00:00:00Z&time_zone=UTC`;
    const r = (await get(`/projects/${project}/gate-report?${q}`)).json();
    expect(r.per_day).toEqual([
      { date: '2026-11-19', entries: 1, exits: 0, visits: 0 },
      { date: '2026-11-20', entries: 5, exits: 5, visits: 4 },
    ]);
    const csv = await get(`/projects/${project}/gate-report/csv?${q}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [head, ...rows] = parseCsv(csv.body);
    expect(head).toEqual(['kind', 'plate', 'vendor', 'entry_at', 'exit_at', 'dwell_seconds', 'entry_camera', 'exit_camera', 'corrected_by']);
    const objects = rows.map((row) => Object.fromEntries((head ?? []).map((h, i) => [h, row[i] === '' ? null : row[i]])));
    const s = (v: unknown) => (v === null ? null : String(v));
    expect(objects).toEqual([
      ...r.visits.map((v: Record<string, unknown> & { corrections: { corrected_by: string }[] }) => ({
        kind: 'visit',
        plate: v.plate,
        vendor: v.vendor,
        entry_at: v.entry_at,
        exit_at: v.exit_at,
        dwell_seconds: s(v.dwell_seconds),
        entry_camera: v.entry_camera,
        exit_camera: v.exit_camera,
        corrected_by: v.corrections.length ? v.corrections.map((c) => c.corrected_by).join(' ') : null,
      })),
      ...r.unmatched_entries.map((m: Record<string, unknown>) => ({
        kind: 'unmatched_entry',
        plate: m.plate,
        vendor: m.vendor,
        entry_at: m.at,
        exit_at: null,
        dwell_seconds: null,
        entry_camera: m.camera_exid,
        exit_camera: null,
        corrected_by: null,
      })),
      ...r.unmatched_exits.map((m: Record<string, unknown>) => ({
        kind: 'unmatched_exit',
        plate: m.plate,
        vendor: m.vendor,
        entry_at: null,
        exit_at: m.at,
        dwell_seconds: null,
        entry_camera: null,
        exit_camera: m.camera_exid,
        corrected_by: null,
      })),
      ...r.on_site.map((m: Record<string, unknown>) => ({
        kind: 'on_site',
        plate: m.plate,
        vendor: m.vendor,
        entry_at: m.at,
        exit_at: null,
        dwell_seconds: null,
        entry_camera: m.camera_exid,
        exit_camera: null,
        corrected_by: null,
      })),
    ]);
    expect(objects).toHaveLength(4 + 1 + 1 + 1);
    const dayCsv = await get(`/projects/${project}/gate-report/days/2026-11-20/csv?time_zone=UTC`);
    expect(dayCsv.headers['content-disposition']).toContain(`gate-report-${project}-2026-11-20.csv`);
  });

  it('refuses bad input with a 400, other people’s projects with a 404, and API keys with a 401', async () => {
    for (const url of [
      `/projects/${project}/gate-report/days/2026-02-30`,
      `/projects/${project}/gate-report/days/20261120`,
      `/projects/${project}/gate-report/days/2026-11-20?time_zone=Mars/Olympus`,
      `/projects/${project}/gate-report?from=2026-11-01T00:00:00Z&to=2026-12-15T00:00:00Z`,
      `/projects/${project}/gate-report?from=2026-11-21T00:00:00Z&to=2026-11-20T00:00:00Z`,
      `/projects/${project}/gate-report?from=yesterday&to=2026-11-20T00:00:00Z`,
      `/projects/${project}/gate-report?to=2026-11-20T00:00:00Z`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    }
    const stranger = await tp.person('stranger');
    expect((await get(`/projects/${project}/gate-report/days/2026-11-20`, stranger.auth)).statusCode).toBe(404);
    const key = (await tp.key(owner, { projects: [project], scopes: ['camera:recordings'] })).key;
    expect((await get(`/projects/${project}/gate-report/days/2026-11-20`, { 'x-api-key': key })).statusCode).toBe(401);
    expect((await get(`/projects/${project}/gate-report/days/2026-11-20`, { 'x-api-key': owner.token })).statusCode).toBe(200);
  });

  it('is published in the AI API’s OpenAPI document', async () => {
    const doc = (await ai.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/projects/{exid}/gate-report',
        '/projects/{exid}/gate-report/csv',
        '/projects/{exid}/gate-report/days/{date}',
        '/projects/{exid}/gate-report/days/{date}/csv',
      ]),
    );
  });
});
