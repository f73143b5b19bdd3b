// Route schemas are compiled once per process, not once per app. Compiling every route's validators
// (Ajv) and response serializers (fast-json-stringify) is nearly all the cost of building an app, and
// a process may build many: each node of a cluster run in one process, every test file of the suite
// (CONTRIBUTING.md, Test). A compiled function holds no state of its app, so apps whose schemas say
// the same thing share it; the memos grow only with the number of distinct schemas.
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

const defaultSerializers = SerializerSelector();
const serializers = byContent<Serializer>();

/**
 * Fastify's own response serializers (`schemaController.compilersFactory.buildSerializer`), shared
 * across apps: keyed by the shared schemas that `$ref`s reach, the serializer options and the schema.
 */
export const buildSharedSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = defaultSerializers(externalSchemas, options);
  return (route) => serializers([externalSchemas, options, route.schema], () => compile(route));
};
