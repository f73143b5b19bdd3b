// A table declared once, at run time, with its Kysely row type derived from the declaration: queries
// get precise column types and a test can compare the declaration with the migrated database.
// Column classes follow the portable column types of docs/decisions.md: timestamps are ISO-8601 UTC
// text, booleans 0/1 integers, JSON text; so a column's TypeScript type is how it is stored.

/** How a column is stored; the schema test maps each class to the database types it accepts. */
export type ColumnClass = 'text' | 'integer' | 'real' | 'flag' | 'json' | 'timestamp';

export interface Column<T = unknown> {
  readonly class: ColumnClass;
  readonly nullable: boolean;
  /** The row type's key is optional (`?`): a column a later migration added, which older writers leave out. */
  readonly optional: boolean;
  /** The values a `oneOf` column takes, for readers of the declaration. */
  readonly values?: readonly string[];
  /** Type only: the column's TypeScript type. */
  readonly __type?: T;
}

const column = <T>(cls: ColumnClass, values?: readonly string[]): Column<T> => ({
  class: cls,
  nullable: false,
  optional: false,
  ...(values ? { values } : {}),
});

/** Text; `text<Union>()` narrows it where a union type of the allowed values already exists. */
export const text = <T extends string = string>() => column<T>('text');
export const integer = () => column<number>('integer');
export const real = () => column<number>('real');
/** A boolean stored as 0/1. */
export const flag = () => column<number>('flag');
/** JSON, stored and typed as its text. */
export const json = () => column<string>('json');
/** ISO-8601 UTC text (`toISOString()`), which sorts as time on both databases. */
export const timestamp = () => column<string>('timestamp');
/** Text that holds one of `values`. */
export const oneOf = <const V extends readonly string[]>(values: V) => column<V[number]>('text', values);

export const nullable = <T>(c: Column<T>): Column<T | null> => ({ ...c, nullable: true }) as Column<T | null>;
export const optional = <T>(c: Column<T>): Column<T> & { readonly optional: true } => ({ ...c, optional: true });

export type Columns = Record<string, Column>;

/** Declares a table's columns (the identity: it keeps the literal types for `TableType`). */
export const table = <C extends Columns>(columns: C): C => columns;

type ValueOf<C> = C extends Column<infer T> ? T : never;
type OptionalKeys<C extends Columns> = { [K in keyof C]: C[K] extends { readonly optional: true } ? K : never }[keyof C];
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The Kysely row type of a declared table. */
export type TableType<C extends Columns> = Simplify<{ [K in Exclude<keyof C, OptionalKeys<C>>]: ValueOf<C[K]> } & { [K in OptionalKeys<C>]?: ValueOf<C[K]> }>;

/** The Kysely database type of a set of declared tables, keyed by table name. */
export type TablesType<T extends Record<string, Columns>> = { [N in keyof T]: TableType<T[N]> };
