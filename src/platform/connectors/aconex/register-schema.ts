// Aconex speaks XML. This file reads its answers (projects, the document register's upload schema, a
// registered document) with fast-xml-parser, checks the fields a caller gives for an upload against
// the project's schema (mandatory fields, known fields, allowed values), and writes the document's
// metadata XML with the builder (which escapes the values).
import { XMLBuilder, XMLParser } from 'fast-xml-parser';
import { ApiError } from '../../../lib/errors.js';

export interface SchemaField {
  identifier: string;
  name: string;
  mandatory: boolean;
  data_type: string;
  /** Allowed values (multi-value fields: document type, status, discipline…); null = free text. */
  values: { id: string; value: string }[] | null;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  isArray: (name) => ['Project', 'SchemaField', 'SchemaValue'].includes(name),
});

// biome-ignore lint/suspicious/noExplicitAny: parsed XML has no static shape; callers pick paths with ?. and check values.
function parse(xml: string, what: string): Record<string, any> {
  try {
    // biome-ignore lint/suspicious/noExplicitAny: as above.
    const doc = parser.parse(xml) as Record<string, any>;
    if (!doc || typeof doc !== 'object') throw new Error('empty');
    return doc;
  } catch {
    throw new ApiError('BAD_GATEWAY', `Aconex answered ${what} with something that is not XML`);
  }
}

const text = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'object' ? String((v as Record<string, unknown>)['#text'] ?? '') : String(v);

export function parseProjects(xml: string): { id: string; name: string; short_name: string | null }[] {
  const doc = parse(xml, 'the project list');
  const list = (doc.ProjectResults?.SearchResults?.Project ?? []) as Record<string, unknown>[];
  return list.map((p) => ({ id: text(p.ProjectID), name: text(p.ProjectName), short_name: text(p.ProjectShortName) || null }));
}

export function parseSchema(xml: string): SchemaField[] {
  const doc = parse(xml, 'the register schema');
  // biome-ignore lint/suspicious/noExplicitAny: parsed XML, as in parse().
  const fields = (doc.RegisterSchema?.SchemaFields?.SchemaField ?? []) as Record<string, any>[];
  return fields.map((f) => {
    const values = (f.SchemaValues?.SchemaValue ?? null) as Record<string, unknown>[] | null;
    return {
      identifier: text(f.Identifier),
      name: text(f.FieldName) || text(f.Identifier),
      mandatory: text(f.Mandatory).toLowerCase() === 'true',
      data_type: text(f.DataType) || 'STRING',
      values: values ? values.map((v) => ({ id: text(v.Id), value: text(v.Value) })) : null,
    };
  });
}

export function parseRegisteredDocument(xml: string): { id: string; document_number: string | null; revision: string | null } {
  const doc = parse(xml, 'the upload');
  const d = doc.RegisterDocument ?? doc.Document;
  const id = text(d?.Id ?? d?.DocumentId ?? d?.['@_DocumentId']);
  if (!id) throw new ApiError('BAD_GATEWAY', 'Aconex did not return the registered document');
  return { id, document_number: text(d.DocumentNumber) || null, revision: text(d.Revision) || null };
}

/**
 * The fields to send: the caller's, plus defaults for the ones a snapshot fills itself (title, number,
 * file name), checked against the schema. Multi-value fields accept the value's id or its text. All
 * problems are reported at once (400 with one detail per field).
 */
export function resolveFields(schema: SchemaField[], given: Record<string, string>, defaults: Record<string, string>): [string, string][] {
  const byId = new Map(schema.map((f) => [f.identifier, f]));
  const problems: { field: string; message: string }[] = [];
  for (const k of Object.keys(given)) if (!byId.has(k)) problems.push({ field: `fields.${k}`, message: 'is not a field of this project’s document register' });
  const out: [string, string][] = [];
  for (const f of schema) {
    const raw = given[f.identifier] ?? defaults[f.identifier];
    if (raw === undefined || raw === '') {
      if (f.mandatory) problems.push({ field: `fields.${f.identifier}`, message: `is mandatory (${f.name})` });
      continue;
    }
    if (f.values) {
      const hit = f.values.find((v) => v.id === raw) ?? f.values.find((v) => v.value.toLowerCase() === raw.toLowerCase());
      if (!hit) {
        problems.push({
          field: `fields.${f.identifier}`,
          message: `must be one of: ${f.values
            .map((v) => v.value)
            .slice(0, 30)
            .join(', ')}`,
        });
        continue;
      }
      out.push([f.identifier, hit.id]);
    } else {
      if (f.data_type === 'DATE' && Number.isNaN(Date.parse(raw))) problems.push({ field: `fields.${f.identifier}`, message: 'must be a date' });
      else if (f.data_type === 'NUMBER' && !/^-?\d+(\.\d+)?$/.test(raw)) problems.push({ field: `fields.${f.identifier}`, message: 'must be a number' });
      else out.push([f.identifier, raw]);
    }
  }
  if (problems.length)
    throw new ApiError('VALIDATION_ERROR', `The document does not fit the project’s register: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`, {
      details: problems,
    });
  return out;
}

const builder = new XMLBuilder({ format: false, suppressEmptyNode: false });

/** `<Document><DocumentNumber>…</DocumentNumber>…</Document>` in schema order, values escaped. */
export function documentXml(fields: [string, string][]): string {
  const doc: Record<string, string> = {};
  for (const [k, v] of fields) if (/^[A-Za-z][A-Za-z0-9_]*$/.test(k)) doc[k] = v;
  return '<?xml version="1.0" encoding="UTF-8"?>' + (builder.build({ Document: doc }) as string);
}
