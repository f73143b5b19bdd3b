// Drives the authorization server's sign-in and consent pages with plain HTTP requests and a cookie jar,
// as a browser would: authorize with PKCE → sign in → consent → the redirect carrying the code.
import { createHash, randomBytes } from 'node:crypto';

export class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /expires=.*1970/i.test(a)) || value === '';
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

export interface BrowserStep {
  status: number;
  location: string | null;
  body: string;
  url: string;
}

/** One browser request: follows nothing, keeps cookies. */
export async function browse(
  jar: CookieJar,
  url: string,
  init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<BrowserStep> {
  const res = await fetch(url, {
    method: init.method ?? (init.form ? 'POST' : 'GET'),
    redirect: 'manual',
    headers: { cookie: jar.header(), ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...init.headers },
    body: init.form ? new URLSearchParams(init.form).toString() : undefined,
  });
  jar.take(res);
  const location = res.headers.get('location');
  return { status: res.status, location: location ? new URL(location, url).toString() : null, body: await res.text(), url };
}

/** Follows redirects until one leaves `origin` (the client's redirect URI) or a page is shown. */
export async function follow(jar: CookieJar, start: BrowserStep, origin: string): Promise<BrowserStep> {
  let step = start;
  for (let i = 0; i < 10 && step.location && step.location.startsWith(origin); i++) step = await browse(jar, step.location);
  return step;
}

export interface SignInResult {
  /** The URL the person lands on at the client (redirect URI with code or error). */
  redirect: URL;
  consentPage: string;
  loginPage: string;
}

/**
 * From an authorization URL to the client's redirect: signs in with e-mail and password and allows
 * on the consent page. `authorizationUrl` is what the client would open in the browser.
 */
export async function signInAndConsent(authorizationUrl: string, person: { email: string; password: string }): Promise<SignInResult> {
  const jar = new CookieJar();
  const origin = new URL(authorizationUrl).origin;
  let step = await follow(jar, await browse(jar, authorizationUrl), origin);
  if (step.status !== 200 || !/\/interaction\//.test(step.url))
    throw new Error(`expected the sign-in page, got ${step.status} at ${step.url}: ${step.body.slice(0, 300)}`);
  const loginPage = step.body;
  const uid = new URL(step.url).pathname.split('/').pop()!;
  step = await browse(jar, `${origin}/oauth/interaction/${uid}/login`, { form: { email: person.email, password: person.password } });
  if (step.status !== 303) throw new Error(`sign-in failed: ${step.status} ${step.body.slice(0, 300)}`);
  step = await follow(jar, step, origin);
  if (step.status !== 200 || !/\/interaction\//.test(step.url))
    throw new Error(`expected the consent page, got ${step.status} at ${step.url}: ${step.body.slice(0, 300)}`);
  const consentPage = step.body;
  const uid2 = new URL(step.url).pathname.split('/').pop()!;
  step = await browse(jar, `${origin}/oauth/interaction/${uid2}/confirm`, { form: { decision: 'allow' } });
  step = await follow(jar, step, origin);
  if (!step.location) throw new Error(`expected a redirect to the client, got ${step.status} at ${step.url}: ${step.body.slice(0, 300)}`);
  return { redirect: new URL(step.location), consentPage, loginPage };
}
