/** The shape of one schema migration (SPEC §9.8 schema stamp). */

/** One forward-only migration; `stamp` is the schema stamp it brings the database to. */
export interface Migration {
  version: number;
  stamp: string;
  statements: string[];
}
