import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiParam, ApiQuery, ApiResponse, SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';

// The API document's shapes are generated from the zod schemas that validate and type them (in
// packages/client/src/http/, or each game's own). Nothing here writes a shape by hand.

/**
 * Shows a schema as OpenAPI 3.0 does. With `input` it shows a request as the client writes it, where
 * defaults make a field optional. With `output` it shows an answer as the server sends it.
 */
export function openApiOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): SchemaObject {
  // Transforms (such as a query's digits read as a number) have no JSON Schema, so `any` shows what is
  // known.
  return z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as SchemaObject;
}

/** Several titled shapes, any of which the body or answer may be. */
export function oneOf(schemas: readonly { title: string; schema: z.ZodType }[], io: 'input' | 'output' = 'output'): SchemaObject {
  return { oneOf: schemas.map(({ title, schema }) => ({ ...openApiOf(schema, io), title })) };
}

/** A JSON request body. */
export const DocBody = (schema: z.ZodType, required = true) => ApiBody({ required, schema: openApiOf(schema, 'input') });

/** Describes an answer with this `status` and its shape. */
export const DocResponse = (status: number, description: string, schema?: z.ZodType | SchemaObject, contentType?: string) =>
  ApiResponse({
    status,
    description,
    ...(schema === undefined
      ? {}
      : contentType
        ? { content: { [contentType]: { schema: asOpenApi(schema) } } }
        : { schema: asOpenApi(schema) }),
  });

function asOpenApi(schema: z.ZodType | SchemaObject): SchemaObject {
  return schema instanceof z.ZodType ? openApiOf(schema) : schema;
}

type Properties = Record<string, SchemaObject & { description?: string; example?: unknown }>;

/**
 * Describes each field of a query's (or a path's) schema as its own parameter. A parameter is text
 * on the wire. The document shows what it is read as (a query's `limit` as an integer from 1 to
 * 100), or the text itself where reading it is a computation (a date).
 */
function parameters(schema: z.ZodObject, where: 'query' | 'path'): MethodDecorator[] {
  const input = openApiOf(schema, 'input');
  const output = openApiOf(schema, 'output');
  const inputs = (input.properties ?? {}) as Properties;
  const outputs = (output.properties ?? {}) as Properties;
  return Object.keys(inputs).map((name) => {
    // A field read as something other than text (digits as an integer) is shown as what it is read as.
    const read = outputs[name]?.type !== undefined && outputs[name].type !== inputs[name].type;
    const { description, example, ...rest } = read
      ? { ...outputs[name], description: outputs[name].description ?? inputs[name].description }
      : inputs[name];
    const required = where === 'path' || (input.required ?? []).includes(name);
    const common = { name, required, schema: rest, ...(description ? { description } : {}), ...(example !== undefined ? { example } : {}) };
    return where === 'path' ? ApiParam(common) : ApiQuery(common);
  });
}

export const DocQuery = (schema: z.ZodObject) => applyDecorators(...parameters(schema, 'query'));
export const DocParams = (schema: z.ZodObject) => applyDecorators(...parameters(schema, 'path'));
