/**
 * Response serialisers made once per process for each schema. fast-json-stringify compiles a route's
 * response schema against all the shared schemas (`Ticket#` and the rest), and checks them first; a
 * serialiser is a pure function of that schema, the shared schemas and the serialiser options, so apps
 * built in one process with the same ones (the API tests build hundreds per worker; a second app in the
 * same process) use the same serialisers instead of compiling them again. Keyed by the JSON of all
 * three: an app with other schemas (another registry, another resource) gets serialisers of its own.
 */
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';

type Serializer = (data: unknown) => string;

/** `factory`'s serialisers, each compiled once per process for the same schemas and options. */
export function sharedSerializers(factory: SerializerFactory): SerializerFactory {
  const made = new Map<string, Map<string, Serializer>>();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    // Once per app (per encapsulated schema set), not per route: the shared schemas are the big part.
    const context = JSON.stringify([externalSchemas, options ?? null]);
    let serializers = made.get(context);
    if (!serializers) made.set(context, (serializers = new Map()));
    const known = serializers;
    return (route) => {
      const key = JSON.stringify(route.schema);
      let serialize = known.get(key);
      if (!serialize) known.set(key, (serialize = compile(route) as Serializer));
      return serialize;
    };
  };
}
