// A foreign tool's input schema as the zod schema our Tool shape carries: its own when it is a zod 4
// object schema, else converted from its JSON Schema. Zod 4.2+ converts it
// (`z.fromJSONSchema`); the package also accepts zod 3.25, whose `zod/v4` has no converter, and the
// converter refuses some schemas (an unresolved `$ref`): then a permissive object that still shows
// the original schema to whoever renders it as JSON Schema (the frameworks do, for the model).
import { z } from "zod/v4";

/** A JSON Schema to zod converter: zod's own `fromJSONSchema` when this zod has one. */
export type JsonSchemaConverter = (schema: Record<string, unknown>) => z.ZodType;

/** How {@link inputSchemaFromJson} built the schema: `converted` validates as the JSON Schema says, `permissive` accepts any object. */
export type InputSchemaKind = "converted" | "permissive";

const zodFromJSONSchema = (z as { fromJSONSchema?: (schema: Record<string, unknown>) => z.ZodType }).fromJSONSchema;

/**
 * The zod schema of a tool input from its JSON Schema: converted when `convert` (default zod's own;
 * null: none) exists and accepts it as an object schema, else an object schema that accepts any object and
 * carries the JSON Schema's keywords as metadata, so `z.toJSONSchema` still renders them.
 */
export function inputSchemaFromJson(
  jsonSchema: Record<string, unknown>,
  convert: JsonSchemaConverter | null = zodFromJSONSchema ?? null,
): { schema: z.ZodType<Record<string, unknown>>; kind: InputSchemaKind } {
  if (convert !== null) {
    try {
      const schema = convert(jsonSchema);
      // Every framework adapter needs an object schema (OpenAI Agents and LangChain take nothing else).
      if (schema instanceof z.ZodObject) return { schema, kind: "converted" };
    } catch {
      // Refused by the converter: the permissive schema below.
    }
  }
  const { $schema: _dialect, type: _type, ...keywords } = jsonSchema;
  return { schema: z.looseObject({}).meta(keywords), kind: "permissive" };
}

/** A foreign tool's schema when it is a zod 4 object schema of the classic API (one with `safeParse`), else undefined. */
export function zodObjectSchema(schema: unknown): z.ZodType<Record<string, unknown>> | undefined {
  if (typeof schema !== "object" || schema === null || !("_zod" in schema)) return undefined;
  const classic = schema as { _zod: { def?: { type?: unknown } }; safeParse?: unknown };
  return classic._zod.def?.type === "object" && typeof classic.safeParse === "function"
    ? (schema as z.ZodType<Record<string, unknown>>)
    : undefined;
}
