/**
 * Writes one batch of a snapshot section with fresh ids (SPEC §4.5 import):
 * the domain column becomes the target name, and every reference to a chunk,
 * an entity or a file source is rewritten through the maps earlier sections
 * filled. New ids are matched back by each table's natural key (chunks by
 * content hash, entities by name, file sources by kind, root and path), since
 * RETURNING gives no row order. A reference to a row the snapshot does not
 * hold is left null where the column allows it, else the snapshot is invalid.
 */
import { MemoryError } from "../core/errors.ts";
import type { GraphDelta } from "../graph/graph-delta.ts";
import type { Exec } from "../store/db.ts";
import { insertPlainRows, type PlainRow } from "../store/snapshots.ts";

/** Old id → new id, per kind. */
export interface IdMaps {
  chunk: Map<number, number>;
  entity: Map<number, number>;
  source: Map<number, number>;
}

const invalid = (message: string) => new MemoryError("snapshot_invalid", message);

function need(map: Map<number, number>, v: unknown, what: string): number {
  const id = map.get(Number(v));
  if (id === undefined) throw invalid(`a row refers to ${what} ${String(v)}, which the snapshot does not hold`);
  return id;
}

const orNull = (map: Map<number, number>, v: unknown) => (v === null || v === undefined ? null : map.get(Number(v)) ?? null);

function without(r: PlainRow, key: string): PlainRow {
  const { [key]: _drop, ...rest } = r;
  return rest;
}

/** Inserts a batch of section `t`; for chunks returns old and new ids. */
export async function remapRow(
  tx: Exec, t: string, rows: PlainRow[], domain: string, maps: IdMaps, delta: GraphDelta,
): Promise<{ oldId: number; newId: number }[]> {
  switch (t) {
    case "chunk": {
      const back = await insertPlainRows(tx, "chunks", rows.map((r) => ({ ...without(r, "id"), domain })), "id, content_hash");
      const byHash = new Map(back.map((b) => [String(b.content_hash), Number(b.id)]));
      return rows.map((r) => {
        const newId = byHash.get(String(r.content_hash))!;
        maps.chunk.set(Number(r.id), newId);
        return { oldId: Number(r.id), newId };
      });
    }
    case "entity": {
      const back = await insertPlainRows(tx, "entities", rows.map((r) => ({ ...without(r, "id"), domain })), "id, name");
      const byName = new Map(back.map((b) => [String(b.name), Number(b.id)]));
      for (const r of rows) {
        const id = byName.get(String(r.name))!;
        maps.entity.set(Number(r.id), id);
        const e: GraphDelta["entities"][number] = { id, domain, name: String(r.name), displayName: String(r.display_name) };
        if (r.type !== null && r.type !== undefined) e.type = String(r.type);
        delta.entities.push(e);
      }
      return [];
    }
    case "relation": {
      const mapped: (PlainRow & { from_id: number; to_id: number; chunk_id: number | null })[] = rows.map((r) => ({
        ...without(r, "id"), domain, from_id: need(maps.entity, r.from_id, "entity"), to_id: need(maps.entity, r.to_id, "entity"),
        chunk_id: orNull(maps.chunk, r.chunk_id),
      }));
      const back = await insertPlainRows(tx, "relations", mapped, "id");
      // RETURNING order is unspecified, but the ids of one multi-row insert are consecutive in input order.
      const ids = back.map((b) => Number(b.id)).sort((a, b) => a - b);
      mapped.forEach((m, k) => {
        const e: GraphDelta["inserted"][number] = {
          id: ids[k], domain, fromId: m.from_id, toId: m.to_id, type: String(m.type), createdAt: String(m.created_at), edgeSource: String(m.edge_source),
        };
        if (m.valid_at !== null && m.valid_at !== undefined) e.validAt = String(m.valid_at);
        if (m.invalid_at !== null && m.invalid_at !== undefined) e.invalidAt = String(m.invalid_at);
        if (m.superseded_at !== null && m.superseded_at !== undefined) e.supersededAt = String(m.superseded_at);
        if (m.chunk_id !== null) e.chunkId = m.chunk_id;
        delta.inserted.push(e);
      });
      return [];
    }
    case "entity_chunk": {
      const mapped: (PlainRow & { entity_id: number; chunk_id: number })[] = rows.map((r) => ({ ...r, entity_id: need(maps.entity, r.entity_id, "entity"), chunk_id: need(maps.chunk, r.chunk_id, "chunk") }));
      await insertPlainRows(tx, "entity_chunks", mapped);
      for (const m of mapped) delta.links.push({ entityId: m.entity_id, chunkId: m.chunk_id, subject: Number(m.subject) === 1 });
      return [];
    }
    case "proposal":
      await insertPlainRows(tx, "proposals", rows.map((r) => ({
        ...without(r, "id"), domain, promoted_chunk_id: orNull(maps.chunk, r.promoted_chunk_id), supersedes_chunk_id: orNull(maps.chunk, r.supersedes_chunk_id),
      })));
      return [];
    case "tombstone":
      // A tombstone names a chunk deleted on the source; its id there is kept as the historical record.
      await insertPlainRows(tx, "tombstones", rows.map((r) => ({ ...without(r, "id"), domain })));
      return [];
    case "link":
      await insertPlainRows(tx, "consolidation_links", rows.map((r) => ({
        ...without(r, "id"), from_chunk_id: need(maps.chunk, r.from_chunk_id, "chunk"), to_chunk_id: need(maps.chunk, r.to_chunk_id, "chunk"),
      })));
      return [];
    case "ump_record":
      await insertPlainRows(tx, "ump_records", rows.map((r) => ({ ...without(r, "seq"), chunk_id: need(maps.chunk, r.chunk_id, "chunk") })));
      return [];
    case "ump_feedback":
      await insertPlainRows(tx, "ump_feedback", rows.map((r) => without(r, "id")));
      return [];
    case "file_source": {
      const back = await insertPlainRows(tx, "file_sources", rows.map((r) => without(r, "id")), "id, kind, root, path");
      const key = (r: PlainRow) => `${String(r.kind)}\u0000${String(r.root)}\u0000${String(r.path)}`;
      const byKey = new Map(back.map((b) => [key(b), Number(b.id)]));
      for (const r of rows) maps.source.set(Number(r.id), byKey.get(key(r))!);
      return [];
    }
    case "file_source_chunk":
      await insertPlainRows(tx, "file_source_chunks", rows.map((r) => ({
        ...r, source_id: need(maps.source, r.source_id, "file source"), chunk_id: need(maps.chunk, r.chunk_id, "chunk"),
      })));
      return [];
    default:
      throw invalid(`unknown snapshot section '${t}'`);
  }
}
