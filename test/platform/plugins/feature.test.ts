// The plugin kit: a feature gets exactly the services it names, must build exactly what it offers, and
// cannot be registered before what it needs; only code outside the app reaches services by name.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { defineFeature, defineRoutes, servicesOf } from '../../../src/platform/plugins/feature.js';

// Two throw-away services for these tests, merged into the registry like a feature's own.
declare module '../../../src/platform/plugins/feature.js' {
  interface PlatformServices {
    testClock: { now(): number };
    testGreeter: { hello(): string };
  }
}

const clock = defineFeature({ name: 'test-clock', needs: [], offers: ['testClock'], build: () => ({ testClock: { now: () => 42 } }) });

describe('defineFeature / defineRoutes', () => {
  it('hands a feature exactly the services it needs, and decorates what it offers', async () => {
    const app = Fastify();
    let seen: string[] = [];
    await app.register(clock);
    await app.register(
      defineFeature({
        name: 'test-greeter',
        needs: ['testClock'],
        offers: ['testGreeter'],
        build: (needs) => {
          seen = Object.keys(needs);
          return { testGreeter: { hello: () => `hello at ${needs.testClock.now()}` } };
        },
      }),
    );
    await app.ready();
    expect(seen).toEqual(['testClock']);
    expect(servicesOf(app).testGreeter.hello()).toBe('hello at 42');
  });

  it('refuses a feature registered before what it needs', async () => {
    const app = Fastify();
    await expect(app.register(defineFeature({ name: 'early', needs: ['testClock'], offers: [], build: () => ({}) }))).rejects.toThrow(/testClock/);
  });

  it('refuses a feature that does not build what it offers, or builds what it does not offer', async () => {
    const broken = defineFeature({ name: 'broken', needs: [], offers: ['testClock'], build: () => ({}) as never });
    await expect(Fastify().register(broken)).rejects.toThrow(/promised testClock/);
    const leaky = defineFeature({ name: 'leaky', needs: [], offers: [], build: () => ({ testClock: { now: () => 1 } }) as never });
    await expect(Fastify().register(leaky)).rejects.toThrow(/without offering it/);
  });

  it('gives routes only what they name, in their own encapsulated context', async () => {
    const app = Fastify();
    await app.register(clock);
    await app.register(
      defineRoutes('test-routes', ['testClock'], async (r, { testClock }) => {
        r.decorate('onlyHere', true);
        r.get('/now', async () => ({ now: testClock.now() }));
      }),
    );
    expect((await app.inject({ url: '/now' })).json()).toEqual({ now: 42 });
    expect(app.hasDecorator('onlyHere')).toBe(false);
  });

  it('servicesOf names a missing service in its error', () => {
    expect(() => servicesOf(Fastify()).cameras).toThrow(/no service named cameras/);
  });
});

describe('features reach services only by declaration', () => {
  const files = (dir: string): string[] =>
    readdirSync(dir).flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });

  it('no code of the main API calls servicesOf or reads a decorator by name', () => {
    const offenders = files('src/platform')
      .filter((f) => !f.endsWith(join('plugins', 'feature.ts')))
      .filter((f) => /\bservicesOf\(|\.getDecorator\(|\.platform\b/.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });
});
