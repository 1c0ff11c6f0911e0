/**
 * An Orama documents-store component that keeps document ids only. Orama's
 * default store keeps every inserted document object (the bulk of its memory
 * at scale); recall reads text from the database, so the lexical index needs
 * none of it. `get` answers an id-only stub whose string properties are
 * empty: Orama's `remove` walks the stub's properties to call the index
 * component, which removes by internal id and ignores the (empty) value.
 */

import type { AnyDocument, AnyOrama, IDocumentsStore } from "@orama/orama";

/** The subset of Orama's internal id store this component reads. */
interface IdStore {
  idToInternalId: Map<string, number>;
  internalIdToId: string[];
}

/** State of the ids-only documents store. */
export interface IdOnlyDocuments {
  docs: Record<number, AnyDocument>;
  ids: Set<number>;
  shared: IdStore;
  stringProps: string[];
}

/** Creates the ids-only documents store component. */
export function createIdOnlyDocumentsStore(): IDocumentsStore<IdOnlyDocuments> {
  const internalId = (store: IdOnlyDocuments, id: string | number): number | undefined =>
    typeof id === "number" ? id : store.shared.idToInternalId.get(id);
  const stub = (store: IdOnlyDocuments, iid: number): AnyDocument | undefined => {
    if (!store.ids.has(iid)) return undefined;
    const doc: AnyDocument = { id: store.shared.internalIdToId[iid - 1] };
    for (const prop of store.stringProps) doc[prop] = "";
    return doc;
  };
  return {
    create(orama: AnyOrama, shared) {
      const schema = (orama.schema ?? {}) as Record<string, unknown>;
      const stringProps = Object.keys(schema).filter((k) => schema[k] === "string");
      // `docs` is required by Orama's store type; it stays empty by design.
      return { docs: {}, ids: new Set<number>(), shared: shared as unknown as IdStore, stringProps };
    },
    get: (store, id) => {
      const iid = internalId(store, id);
      return iid === undefined ? undefined : stub(store, iid);
    },
    getMultiple: (store, ids) => ids.map((id) => {
      const iid = internalId(store, id);
      return iid === undefined ? undefined : stub(store, iid);
    }),
    getAll: (store) => {
      const all: Record<number, AnyDocument> = {};
      for (const iid of store.ids) all[iid] = stub(store, iid)!;
      return all;
    },
    store: (store, _id, iid) => {
      if (store.ids.has(iid)) return false;
      store.ids.add(iid);
      return true;
    },
    remove: (store, id) => {
      const iid = internalId(store, id);
      return iid !== undefined && store.ids.delete(iid);
    },
    count: (store) => store.ids.size,
    load: (shared, raw) => {
      const r = raw as { ids?: unknown; stringProps?: unknown };
      const ids = Array.isArray(r.ids) ? r.ids.filter((x): x is number => Number.isSafeInteger(x)) : [];
      const stringProps = Array.isArray(r.stringProps) ? r.stringProps.filter((x): x is string => typeof x === "string") : [];
      return { docs: {}, ids: new Set(ids), shared: shared as unknown as IdStore, stringProps };
    },
    save: <R>(store: IdOnlyDocuments) => ({ ids: [...store.ids], stringProps: store.stringProps }) as R,
  };
}
