// How the main API is composed: every capability is a Fastify plugin that names what it needs and what
// it offers, and Fastify checks the names when the plugin is registered (docs/architecture.md).
//
// - `defineFeature` builds services from the services it `needs` and decorates the app with exactly
//   the ones it `offers`. It runs at the root (fastify-plugin), in the order app.ts registers it.
// - `defineRoutes` registers a feature's routes in their own encapsulated context and hands them only
//   the services they `need`.
//
// A plugin receives its needs as a typed object built from those names alone: `PlatformServices` is not
// merged into `FastifyInstance`, so a plugin cannot reach a service it did not declare. Each feature
// adds what it offers to `PlatformServices` with `declare module` in its plugin file.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

/** Every service a plugin can offer, by name. Each feature's plugin file adds its own entries. */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in the feature plugins.
export interface PlatformServices {}

export type ServiceName = keyof PlatformServices & string;

/** The services a plugin asked for, and nothing else. */
export type Needs<N extends ServiceName> = { readonly [K in N]: PlatformServices[K] };

function neededFrom<N extends ServiceName>(app: FastifyInstance, plugin: string, needs: readonly N[]): Needs<N> {
  const out = {} as Record<string, unknown>;
  for (const name of needs) {
    if (!app.hasDecorator(name)) throw new Error(`plugin ${plugin} needs ${name}, which no plugin registered before it offers`);
    out[name] = app.getDecorator(name);
  }
  return out as Needs<N>;
}

export interface FeatureSpec<N extends ServiceName, O extends ServiceName> {
  /** The plugin's name, as Fastify reports it (`plugin-meta`). */
  name: string;
  needs: readonly N[];
  offers: readonly O[];
  /** Builds what the feature offers; `app` is for its logger and lifecycle hooks (onReady, onClose). */
  build(needs: Needs<N>, app: FastifyInstance): Pick<PlatformServices, O> | Promise<Pick<PlatformServices, O>>;
}

/** What a plugin declared, kept on it for docs/architecture.md's generated table. */
export interface PluginDeclaration {
  name: string;
  needs: readonly string[];
  offers: readonly string[];
}

const DECLARATION = Symbol.for('overlook.plugin-declaration');

/** The declaration of a plugin made by `defineFeature` or `defineRoutes`. */
export function declarationOf(plugin: FastifyPluginAsync): PluginDeclaration | undefined {
  return (plugin as unknown as Record<symbol, PluginDeclaration | undefined>)[DECLARATION];
}

function declared(plugin: FastifyPluginAsync, declaration: PluginDeclaration): FastifyPluginAsync {
  Object.defineProperty(plugin, DECLARATION, { value: declaration });
  return plugin;
}

/** A feature's services as a plugin at the root of the app. */
export function defineFeature<const N extends ServiceName, const O extends ServiceName>(spec: FeatureSpec<N, O>): FastifyPluginAsync {
  const plugin = fp(
    async (app) => {
      const offered = (await spec.build(neededFrom(app, spec.name, spec.needs), app)) as Record<string, unknown>;
      for (const name of spec.offers) {
        if (!(name in offered)) throw new Error(`plugin ${spec.name} promised ${name} but did not build it`);
        app.decorate(name, offered[name] as never);
      }
      const extra = Object.keys(offered).filter((k) => !(spec.offers as readonly string[]).includes(k));
      if (extra.length > 0) throw new Error(`plugin ${spec.name} built ${extra.join(', ')} without offering it`);
    },
    { name: spec.name, fastify: '5.x', decorators: { fastify: [...spec.needs] } },
  );
  return declared(plugin, { name: spec.name, needs: spec.needs, offers: spec.offers });
}

/** A feature's routes: an encapsulated plugin that gets only the services it names. */
export function defineRoutes<const N extends ServiceName>(
  name: string,
  needs: readonly N[],
  register: (app: FastifyInstance, needs: Needs<N>) => Promise<void>,
): FastifyPluginAsync {
  const plugin = fp(async (app) => register(app, neededFrom(app, name, needs)), {
    name,
    fastify: '5.x',
    encapsulate: true,
    decorators: { fastify: [...needs] },
  });
  return declared(plugin, { name, needs, offers: [] });
}

/**
 * The services of a built app, by name, for code outside the app's plugins: the CLI's demo seeding and
 * tests. Features never use it (they declare their needs); a test in test/platform/architecture holds that.
 */
export function servicesOf(app: FastifyInstance): PlatformServices {
  return new Proxy({} as PlatformServices, {
    get: (_t, name) => {
      if (typeof name !== 'string' || !app.hasDecorator(name)) throw new Error(`the app offers no service named ${String(name)}`);
      return app.getDecorator(name);
    },
  });
}
