// A route's schemas are compiled when the route first answers, not when the app is built.
//
// Fastify compiles an Ajv validator for every validated part and a fast-json-stringify serializer
// for every response code of every route at start, all of it generated code that V8 keeps for the
// life of the process. Most of them are never used by a given process: a shop's server never
// answers most error codes, a test file drives a handful of routes, a worker process none. So each
// compiler here returns a stand-in that compiles on its first call and then calls the real function.
// `compilePendingSchemas` forces every stand-in not yet compiled: the test that every route's
// schemas compile uses it, so a broken schema still fails the suite rather than a first request.
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { ValidateFunction } from 'ajv';

const pending = new Set<() => unknown>();

function deferred<F>(compile: () => F): () => F {
  let fn: F | undefined;
  const force = () => {
    if (fn === undefined) {
      fn = compile();
      pending.delete(force);
    }
    return fn;
  };
  pending.add(force);
  return force;
}

/**
 * A validator that compiles on first use. Fastify passes Ajv's own functions the request as the
 * parent of the part (so coercion and defaults may replace a root value); `schemaEnv` tells it this
 * one is Ajv's too, and the real function's errors are copied where Fastify reads them.
 */
export function lazyValidator(compile: () => ValidateFunction) {
  const real = deferred(compile);
  const validate = Object.assign(
    (data: unknown, context?: Parameters<ValidateFunction>[1]) => {
      const fn = real();
      const ok = fn(data, context);
      validate.errors = fn.errors;
      return ok;
    },
    { errors: null as ValidateFunction['errors'], schemaEnv: true as const },
  );
  return validate;
}

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/** Fastify's default serializer factory (fast-json-stringify), each response schema compiled on first use. */
export const lazySerializers: SerializerFactory = (externalSchemas, options) => {
  const compile = SerializerSelector()(externalSchemas, options);
  return (route) => {
    const real = deferred(() => compile(route));
    return (payload: unknown) => real()(payload);
  };
};

/** Compiles every schema not compiled yet, in this process; returns how many it compiled. */
export function compilePendingSchemas(): number {
  const all = [...pending];
  for (const force of all) force();
  return all.length;
}
