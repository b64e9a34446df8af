import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiParam, ApiQuery, ApiResponse, SchemaObject } from '@nestjs/swagger';
import { z } from 'zod';

// The API document's shapes, generated from the zod schemas that validate and type them
// (packages/client/src/http/, each game's own): nothing here writes a shape by hand.

/**
 * A schema as OpenAPI 3.0 shows it: a request as the client writes it (`input`: defaults make a
 * field optional), an answer as the server sends it (`output`).
 */
export function openApiOf(schema: z.ZodType, io: 'input' | 'output' = 'output'): SchemaObject {
  // Transforms (a query's digits read as a number) have no JSON Schema: `any` shows what is known.
  return z.toJSONSchema(schema, { target: 'openapi-3.0', io, unrepresentable: 'any' }) as SchemaObject;
}

/** Several shapes, any of which the body or answer may be, each titled. */
export function oneOf(schemas: readonly { title: string; schema: z.ZodType }[], io: 'input' | 'output' = 'output'): SchemaObject {
  return { oneOf: schemas.map(({ title, schema }) => ({ ...openApiOf(schema, io), title })) };
}

/** A JSON request body. */
export const DocBody = (schema: z.ZodType, required = true) => ApiBody({ required, schema: openApiOf(schema, 'input') });

/** An answer of `status` with its shape. */
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
 * Each field of a query's (or a path's) schema as its own parameter. A parameter is text on the
 * wire; the document shows what it is read as (a query's `limit` as an integer from 1 to 100),
 * or the text itself where reading it is a computation (a date).
 */
function parameters(schema: z.ZodObject, where: 'query' | 'path'): MethodDecorator[] {
  const input = openApiOf(schema, 'input');
  const output = openApiOf(schema, 'output');
  const inputs = (input.properties ?? {}) as Properties;
  const outputs = (output.properties ?? {}) as Properties;
  return Object.keys(inputs).map((name) => {
    // Read as something other than text (digits as an integer): shown as what it is read as.
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
