// Route schemas are compiled on a route's first request, and once per process. Compiling every route's
// validators (Ajv) and response serializers (fast-json-stringify) was most of the CPU an app takes to
// start, and a process serves few of its routes: a CLI command's short-lived server, a test file, a
// node that has just started. Done on first use, a start does none of it, and a route's first request
// pays a few milliseconds once. A compiled function holds no state of its app, so apps whose schemas
// say the same thing (each node of a cluster run in one process, every test file of the suite) share
// it; the memos grow only with the number of distinct schemas.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/** A memo keyed by what a value says: apps that build their schemas inline have equal but distinct objects. */
export function byContent<F>(): (key: unknown, compile: () => F) => F {
  const compiled = new Map<string, F>();
  return (key, compile) => {
    const text = JSON.stringify(key);
    let f = compiled.get(text);
    if (f === undefined) {
      f = compile();
      compiled.set(text, f);
    }
    return f;
  };
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/**
 * Fastify's response serializers (`schemaController.compilersFactory.buildSerializer`) from `select`,
 * each compiled on its first call and shared across apps: keyed by the shared schemas that `$ref`s
 * reach, the serializer options and the schema.
 */
export function sharedSerializers(select: SerializerFactory): SerializerFactory {
  const serializers = byContent<Serializer>();
  return (externalSchemas, options) => {
    const compile = select(externalSchemas, options);
    return (route) => {
      let serialize: Serializer | undefined;
      return (data) => {
        serialize ??= serializers([externalSchemas, options, route.schema], () => compile(route));
        return serialize(data);
      };
    };
  };
}

export const buildSharedSerializer = sharedSerializers(SerializerSelector());
