/**
 * How an app writes its answers from its routes' response schemas: each route's serialiser made at its
 * first answer (lazySerializers), once per process for the same schemas (sharedSerializers), and, where
 * the environment asks for it (the tests), checked against JSON.stringify (checkedSerializers). buildApp
 * uses it, and so do the tests' bare apps of one or two plugins: with Fastify's default every route of
 * theirs was compiled when the app started (the docs test's app took 15 s of CPU to start).
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { SerializerFactory } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';
import { checkedSerializers, lazySerializers, serializationCheckEnabled } from './serialization-check.ts';
import { sharedSerializers } from './serializer-cache.ts';
import { withoutDefaults } from './without-defaults.ts';

/** `factory`'s serialisers, compiled from the shared and the route's schemas without their defaults. */
function noDefaults(factory: SerializerFactory): SerializerFactory {
  return (externalSchemas, options) => {
    const compile = factory(withoutDefaults(externalSchemas), options);
    return (route) => compile({ ...route, schema: withoutDefaults(route.schema) });
  };
}

/** Every app of this process writes its answers with these: each schema compiled once, no defaults. */
const serializers = noDefaults(sharedSerializers(SerializerSelector()));

/** The `schemaController` option of an app; `check`: compare every answer with JSON.stringify's. */
export function answerSerializers(
  check = serializationCheckEnabled(process.env),
): NonNullable<FastifyServerOptions['schemaController']> {
  return {
    compilersFactory: {
      buildSerializer: lazySerializers(check ? checkedSerializers(serializers) : serializers),
    },
  };
}
