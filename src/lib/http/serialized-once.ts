// A cached value a route answers again and again (a camera's record), serialised once per value instead
// of once per request. The text is kept beside the value it was made from, in a WeakMap: a value the cache
// replaces or drops takes its text with it, so what is sent is always what the route's serializer makes
// of the value now cached (docs/benchmarks.md, The request path, seventh pass).
import type { FastifyReply } from 'fastify';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * A sender for one route: `send(reply, value)` answers `value` as the route's response schema for
 * the reply's status serialises it, made once per value object. The values must never be changed in
 * place (cached values are not).
 */
export function serializedOnce<T extends object>(): (reply: FastifyReply, value: T) => void {
  const texts = new WeakMap<T, ReturnType<FastifyReply['serialize']>>();
  return (reply, value) => {
    let text = texts.get(value);
    if (text === undefined) {
      text = reply.serialize(value);
      texts.set(value, text);
    }
    // Text (or bytes) with a JSON content type is sent as it is: the serializer does not run again.
    reply.type(JSON_TYPE).send(text);
  };
}
