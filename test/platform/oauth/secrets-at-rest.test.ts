// The authorization server keeps no usable credential in the database: codes and refresh tokens are
// stored under their SHA-256 with no value in the row, client secrets as their SHA-256; everything still
// works (code exchange, rotation, refusal of a replay, client authentication), and rows written before
// hashing are hashed at start-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkcePair, signInAndConsent } from '../../helpers/oauth-flow.js';
import { REDIRECT, authorizationUrl, registerClient, startOauthServers, tokenRequest, type OauthServers } from '../../helpers/oauth-servers.js';
import type { Person } from '../../helpers/platform.js';
import { hashStoredOauthSecrets, HASHED_PREFIX } from '../../../src/platform/oauth/oauth-secrets-at-rest.js';

let s: OauthServers;
beforeAll(async () => {
  s = await startOauthServers();
});
afterAll(() => s.close());

/** Every oauth_records row as text: what a copy of the database shows. */
const tableText = async () => JSON.stringify(await s.tp.t.db.kysely.selectFrom('oauth_records').selectAll().execute());

const basic = (id: string, secret: string) => ({
  authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
});

async function codeFor(person: Person, clientId: string) {
  const { verifier, challenge } = pkcePair();
  const flow = await signInAndConsent(
    authorizationUrl(s.apiUrl, { client_id: clientId, code_challenge: challenge, code_challenge_method: 'S256', resource: s.mcpUrl }),
    person,
  );
  const code = flow.redirect.searchParams.get('code');
  if (!code) throw new Error(`no code: ${flow.redirect}`);
  return { code, verifier };
}

async function confidentialApp(name: string) {
  const owner = await s.tp.person(name);
  const res = await s.tp.app.inject({
    method: 'POST',
    url: '/v2/developer/apps',
    headers: owner.auth,
    payload: { name, redirect_uris: [REDIRECT], confidential: true },
  });
  expect(res.statusCode).toBe(201);
  return res.json() as { client_id: string; client_secret: string };
}

describe('secrets at rest', () => {
  it('stores a confidential app’s secret, its codes and refresh tokens only as digests, and the flow still works', async () => {
    const app = await confidentialApp('confidential-dev');
    expect(await tableText()).not.toContain(app.client_secret);

    const person = await s.tp.person('confidential-user');
    const { code, verifier } = await codeFor(person, app.client_id);
    expect(await tableText()).not.toContain(code);
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, resource: s.mcpUrl };

    // A wrong secret is refused, and does not spend the code.
    const wrong = await tokenRequest(s.apiUrl, exchange, basic(app.client_id, `${app.client_secret}x`));
    expect(wrong.status).toBe(401);
    expect((await wrong.json()).error).toBe('invalid_client');

    const ok = await tokenRequest(s.apiUrl, exchange, basic(app.client_id, app.client_secret));
    expect(ok.status).toBe(200);
    const tokens = await ok.json();
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await tokenRequest(
      s.apiUrl,
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, resource: s.mcpUrl },
      basic(app.client_id, app.client_secret),
    );
    expect(refreshed.status).toBe(200);
    const next = await refreshed.json();
    const text = await tableText();
    for (const value of [app.client_secret, code, tokens.refresh_token, next.refresh_token]) expect(text).not.toContain(value);
    const rows = await s.tp.t.db.kysely
      .selectFrom('oauth_records')
      .select(['model', 'id'])
      .where('model', 'in', ['AuthorizationCode', 'RefreshToken'])
      .execute();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const r of rows) expect(r.id.startsWith(HASHED_PREFIX), `${r.model} ${r.id}`).toBe(true);

    // The rotated-out token is refused (and ends the grant).
    const old = await tokenRequest(
      s.apiUrl,
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, resource: s.mcpUrl },
      basic(app.client_id, app.client_secret),
    );
    expect((await old.json()).error).toBe('invalid_grant');

    // The code is spent: a second exchange is refused.
    const replay = await tokenRequest(s.apiUrl, exchange, basic(app.client_id, app.client_secret));
    expect((await replay.json()).error).toBe('invalid_grant');
  });

  it('hashes the secret of a client registered dynamically (client_secret_post), which authenticates; client_secret_jwt is not offered', async () => {
    const client = await registerClient(s.apiUrl, { token_endpoint_auth_method: 'client_secret_post' });
    const secret = client.client_secret as string;
    expect(secret).toBeTruthy();
    expect(await tableText()).not.toContain(secret);

    const person = await s.tp.person('post-user');
    const { code, verifier } = await codeFor(person, client.client_id);
    const res = await tokenRequest(s.apiUrl, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      resource: s.mcpUrl,
      client_id: client.client_id,
      client_secret: secret,
    });
    expect(res.status).toBe(200);

    // The registration read endpoint never answers the stored digest; its access token is hashed too.
    const rat = client.registration_access_token as string;
    expect(rat).toBeTruthy();
    expect(await tableText()).not.toContain(rat);
    const read = await fetch(`${s.apiUrl}/oauth/reg/${client.client_id}`, { headers: { authorization: `Bearer ${rat}` } });
    expect(read.status).toBe(200);
    const readBody = await read.json();
    expect(readBody.client_id).toBe(client.client_id);
    expect(readBody.client_secret).toBeUndefined();
    expect(JSON.stringify(readBody)).not.toContain(HASHED_PREFIX);

    const jwtAuth = await fetch(`${s.apiUrl}/oauth/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_jwt' }),
    });
    expect(jwtAuth.status).toBe(400);
    expect((await jwtAuth.json()).error).toBe('invalid_client_metadata');
  });

  it('hashes at start-up what was stored before: refresh tokens and client secrets keep working', async () => {
    const app = await confidentialApp('legacy-dev');
    const person = await s.tp.person('legacy-user');
    const { code, verifier } = await codeFor(person, app.client_id);
    const exchange = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, resource: s.mcpUrl };
    const tokens = await (await tokenRequest(s.apiUrl, exchange, basic(app.client_id, app.client_secret))).json();
    expect(tokens.refresh_token).toBeTruthy();

    // Put both rows back as they were stored before hashing: the token's row keyed by its value (with
    // the value in the payload), the client's secret in clear.
    const db = s.tp.t.db.kysely;
    const tokenRows = await db.selectFrom('oauth_records').select(['id', 'payload']).where('model', '=', 'RefreshToken').execute();
    const mine = tokenRows.filter((r) => r.payload.includes(app.client_id));
    expect(mine.length).toBe(1);
    const payload = { ...JSON.parse(mine[0]!.payload), jti: tokens.refresh_token };
    await db
      .updateTable('oauth_records')
      .set({ id: tokens.refresh_token, payload: JSON.stringify(payload) })
      .where('model', '=', 'RefreshToken')
      .where('id', '=', mine[0]!.id)
      .execute();
    const client = await db
      .selectFrom('oauth_records')
      .select('payload')
      .where('model', '=', 'Client')
      .where('id', '=', app.client_id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('oauth_records')
      .set({ payload: JSON.stringify({ ...JSON.parse(client.payload), client_secret: app.client_secret }) })
      .where('model', '=', 'Client')
      .where('id', '=', app.client_id)
      .execute();
    expect(await tableText()).toContain(tokens.refresh_token);
    expect(await tableText()).toContain(app.client_secret);

    expect(await hashStoredOauthSecrets(s.tp.t.db)).toBeGreaterThanOrEqual(2);
    expect(await hashStoredOauthSecrets(s.tp.t.db)).toBe(0);
    const text = await tableText();
    expect(text).not.toContain(tokens.refresh_token);
    expect(text).not.toContain(app.client_secret);

    const refreshed = await tokenRequest(
      s.apiUrl,
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token, resource: s.mcpUrl },
      basic(app.client_id, app.client_secret),
    );
    expect(refreshed.status).toBe(200);
  });
});
