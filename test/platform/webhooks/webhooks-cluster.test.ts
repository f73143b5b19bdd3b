// Webhooks on a real cluster (docs/notifications.md, The outbox): two `overlook serve` processes on one
// PostgreSQL database. Events caused through either node reach the receiver once each; a node killed
// with SIGKILL while its delivery hangs leaves a claim the other node takes over when it runs out, and
// the event then arrives, answered, once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/lib/db/index.js';
import type { PlatformDatabase } from '../../../src/platform/database.js';
import { createUser } from '../../../src/platform/users/create-user.js';
import { type CliCluster, createScratchDatabase, type ScratchDatabase, startCluster } from '../../helpers/cli-cluster.js';
import { testDialect } from '../../helpers/db.js';
import { type Receiver, startReceiver, until } from '../../helpers/webhook-receiver.js';

const LEASE_SECONDS = 2;

async function call(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as any;
  return { status: res.status, json };
}

describe.skipIf(testDialect() !== 'postgres')('webhooks on two `overlook serve` processes (PostgreSQL only)', () => {
  let scratch: ScratchDatabase | undefined;
  let cluster: CliCluster | undefined;
  let receiver: Receiver;
  let auth: Record<string, string>;
  let project: string;
  let camera: string;
  let db: ReturnType<typeof openDb<PlatformDatabase>>;

  const comment = async (base: string, content: string) => {
    const res = await call(base, 'POST', `/v2/projects/${project}/comments`, auth, {
      camera_exid: camera,
      timestamp: '2026-11-20T10:00:00Z',
      position2d: { x: 0.5, y: 0.5 },
      content,
    });
    expect(res.status).toBe(201);
  };
  const answered = () => receiver.got.filter((_, i) => answers.has(i));
  const answers = new Set<number>();

  beforeAll(async () => {
    receiver = await startReceiver();
    scratch = await createScratchDatabase(process.env.OVERLOOK_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
    cluster = await startCluster({
      databaseUrl: scratch.url,
      nodes: 2,
      env: {
        OVERLOOK_WORK_LEASE_SECONDS: String(LEASE_SECONDS),
        OVERLOOK_ALLOWED_NETWORKS: '127.0.0.0/8',
        OVERLOOK_RECORDING_LOOP: '0',
        OVERLOOK_OUTBOX_POLL_SECONDS: '0.5',
        OVERLOOK_OUTBOX_RETRY_SECONDS: '0.2',
        OVERLOOK_WEBHOOK_TIMEOUT_MS: '1500',
      },
    });
    db = openDb<PlatformDatabase>({ databaseUrl: scratch.url, poolSize: 2 });
    await createUser(db, { email: 'owner@hooks.example.com', password: 'owner-hooks-password', firstname: 'Owner' });
    const [n1] = cluster.nodes;
    const login = await call(n1!.url, 'POST', '/v2/auth/login', {}, { username: 'owner@hooks.example.com', password: 'owner-hooks-password' });
    auth = { authorization: `Bearer ${login.json.token}` };
    project = (await call(n1!.url, 'POST', '/v2/projects', auth, { name: 'Hooked site' })).json.exid;
    camera = (await call(n1!.url, 'POST', '/v2/cameras', auth, { name: 'Gate', project_exid: project, simulated: true })).json.exid;
    const hook = await call(n1!.url, 'POST', `/v2/projects/${project}/webhooks`, auth, { url: receiver.url, events: ['comment.created'] });
    expect(hook.status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await db?.close();
    await cluster?.close();
    await scratch?.drop();
  }, 30_000);

  it('events caused through either node reach the receiver once each', async () => {
    const [n1, n2] = cluster!.nodes;
    receiver.answer = (n) => {
      answers.add(n);
      return 200;
    };
    for (let i = 0; i < 40; i++) await comment(i % 2 ? n1!.url : n2!.url, `comment ${i}`);
    await until('40 deliveries', () => receiver.got.length >= 40, 30_000);
    // Both nodes poll twice meanwhile: a duplicate would show up.
    await new Promise((r) => setTimeout(r, 1500));
    const contents = receiver.got.map((g) => JSON.parse(g.body).data.content);
    expect(contents).toHaveLength(40);
    expect(new Set(contents).size).toBe(40);
  }, 60_000);

  it('a node killed with SIGKILL in the middle of a delivery: the other node delivers the event later, once', async () => {
    const before = receiver.got.length;
    // The next request hangs: whichever node sends it is then killed while waiting for the answer.
    receiver.answer = (n) => {
      if (n === before) return 'hang';
      answers.add(n);
      return 200;
    };
    await comment(cluster!.nodes[0]!.url, 'the one in flight');
    await until('the hanging request', () => receiver.got.length > before, 15_000);
    const claim = await db.kysely.selectFrom('outbox_deliveries').select(['claimed_by', 'event_id']).where('status', '=', 'pending').executeTakeFirstOrThrow();
    const sender = cluster!.nodes.find((n) => n.output().includes(`"node":"${claim.claimed_by}"`))!;
    expect(sender, 'the node holding the claim').toBeDefined();
    await sender.kill();
    const survivor = cluster!.nodes.find((n) => n !== sender)!;
    expect(survivor.alive()).toBe(true);
    await until(
      'delivered by the other node',
      async () =>
        (await db.kysely.selectFrom('outbox_deliveries').select('status').where('event_id', '=', claim.event_id).executeTakeFirst())?.status === 'delivered',
      20_000,
    );
    await new Promise((r) => setTimeout(r, 1500));
    const ofEvent = receiver.got.filter((g) => JSON.parse(g.body).id === claim.event_id);
    // Sent twice (the first never answered), answered once.
    expect(ofEvent).toHaveLength(2);
    expect(answered().filter((g) => JSON.parse(g.body).id === claim.event_id)).toHaveLength(1);
  }, 60_000);
});
