import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type BuildSerializer = NonNullable<CompilersFactory['buildSerializer']>;
type Serializer = (doc: unknown) => string;

const buildSerializerFactory = SerializerSelector();
/** Compiled serializers per set of shared schemas and options, then per route schema (the object). */
const serializers = new Map<string, WeakMap<object, Serializer>>();

/**
 * A route schema's serializer, compiled once per process: Fastify's own factory compiles every
 * response schema again for each app a process builds, the most of a build's work (the API's
 * tests build hundreds of apps; a server or command builds one).
 */
const buildSerializer: BuildSerializer = (externalSchemas, options) => {
  const compile = buildSerializerFactory(externalSchemas, options);
  const key = JSON.stringify([externalSchemas, options]);
  let compiled = serializers.get(key);
  if (!compiled) serializers.set(key, (compiled = new WeakMap()));
  return (route) => {
    const schema = route.schema;
    if (typeof schema !== 'object' || schema === null) return compile(route);
    let serializer = compiled.get(schema);
    if (!serializer) compiled.set(schema, (serializer = compile(route)));
    return serializer;
  };
};

/**
 * Fastify's compilers, shared by every app this process builds: the validators' Ajv instance is
 * kept per set of shared schemas and options (it keeps what it compiled per schema object), and
 * each response schema's serializer is compiled once (above). A compiled validator or serializer
 * depends on its schemas and options only.
 */
export const sharedSchemaCompilers: CompilersFactory = {
  buildValidator: AjvCompiler(),
  buildSerializer,
};
