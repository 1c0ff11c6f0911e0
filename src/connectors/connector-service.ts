/**
 * `memory.connectors` (issue 15; SPEC §2.12, §4.4, §4.12): the registry, registration (config written 0600,
 * gated by family), and one sync at a time per instance. HTTP (`GET /connectors`, `POST /connectors/register`) and
 * the CLI (`cairn connect`, `cairn sync`, `cairn connector-status`) call this same service.
 */
import type { AuditService } from "../audit/audit-service.ts";
import { MemoryError } from "../core/errors.ts";
import type { WriteContext } from "../ingest/context.ts";
import type { SourceService } from "../sources/source-service.ts";
import { getConnector, insertConnector, listConnectors, type ConnectorRow } from "../store/connectors.ts";
import { configOrigins, configPath, type ConnectorFiles, FAMILY_OF, instanceFromPath, instanceName, loadConfig, secretPaths } from "./config-files.ts";
import { knownKinds, vendorFactory } from "./kinds.ts";
import { createSubjectRef } from "./subject-salt.ts";
import { runSync, type SyncSummary } from "./sync.ts";
import { createVendorHttp } from "./vendor-http.ts";
import { parseWith } from "../core/schema.ts";
import { RegisterConnectorBody, type RegisterConnectorInput } from "./connector-schema.ts";
import type { VendorDeps, VendorSource } from "./vendor.ts";

export type { ConnectorRow } from "../store/connectors.ts";
export type { SyncSummary } from "./sync.ts";

/** The connector list row (SPEC §2.12 fields, plus this project's `cursor_committed`, `last_error`, `records_total`). */
export interface ConnectorView {
  id: number;
  kind: string;
  instance: string;
  state: ConnectorRow["state"];
  /** Omitted until the first complete sync (SPEC §4: optional fields are omitted, never null). */
  last_sync_at?: string;
  /** Omitted unless the last sync failed. */
  last_error?: string;
  records_total: number;
  resumable: boolean;
}

/** The service. */
export interface ConnectorService {
  list(): Promise<ConnectorView[]>;
  /** Registers `{kind, instance?, config?}`: writes the config (0600) when given, else loads the existing file. */
  register(body: RegisterConnectorInput): Promise<{ created: boolean; connector: ConnectorView; config_path: string }>;
  /** One sync of `kind`/`instance` (or the config at `configPath`). */
  sync(o: { kind: string; instance?: string; configPath?: string; onPage?: (p: { pages: number; records: number }) => void }): Promise<SyncSummary>;
}

/** Dependencies (the composition root passes them). */
export interface ConnectorDeps {
  write: WriteContext;
  audit: AuditService;
  sources: SourceService;
  applyCase(envelope: unknown, o: { origin: string }): Promise<{ status: string }>;
  clock: () => Date;
  configDir: string;
  families: readonly string[];
  allowLoopback: boolean;
  resolve: (host: string) => Promise<string[]>;
  /** Connects to checked addresses only (the runtime's pinned fetch; SPEC §5 item 12). */
  pinnedFetch?: (addresses: readonly string[]) => typeof fetch;
  files?: ConnectorFiles;
  /** Waits between vendor retries (tests inject a no-op). */
  sleep?: (ms: number) => Promise<void>;
  floorSec?: number;
}

function view(r: ConnectorRow): ConnectorView {
  return {
    id: r.id, kind: r.kind, instance: r.instance, state: r.state,
    ...(r.last_sync_at !== null ? { last_sync_at: r.last_sync_at } : {}), ...(r.last_error !== null ? { last_error: r.last_error } : {}),
    records_total: r.records_total, resumable: r.cursor !== null,
  };
}

/** Builds `memory.connectors`. */
export function createConnectorService(d: ConnectorDeps): ConnectorService {
  const db = d.write.db;
  const files = (): ConnectorFiles => {
    if (!d.files) throw new MemoryError("connectors_unavailable", "Connector files are not available in this runtime", undefined, 501);
    return d.files;
  };
  const checkKind = (kind: unknown): string => {
    if (typeof kind !== "string" || !vendorFactory(kind)) {
      throw new MemoryError("connector_kind_unknown", `Unknown connector kind; known: ${knownKinds().join(", ")}`, { field: "kind" }, 400);
    }
    // SPEC §4.4: registration is profile-gated by family (`CAIRN_CONNECTOR_FAMILIES`).
    const family = FAMILY_OF[kind] ?? "ticketing";
    if (!d.families.includes(family)) {
      throw new MemoryError("connector_family_disabled", `Connectors of the ${family} family are not enabled (CAIRN_CONNECTOR_FAMILIES)`, { family }, 403);
    }
    return kind;
  };
  const vendorDeps = (config: Record<string, unknown>, kind: string): VendorDeps => ({
    http: createVendorHttp({ allowedOrigins: configOrigins(config, kind), allowLoopback: d.allowLoopback, resolve: d.resolve, sleep: d.sleep,
      ...(d.pinnedFetch ? { pinnedFetch: d.pinnedFetch } : {}) }),
    readSecret: async (path) => {
      const text = await files().read(path, "connector secret file");
      if (text === undefined) throw new MemoryError("not_found", "A secret file named by the connector config is missing", undefined, 404);
      return text;
    },
    subjectRef: createSubjectRef({
      read: () => files().read(`${d.configDir}/connectors/subject-salt`, "subject salt file"),
      createNew: (text) => files().createNew(`${d.configDir}/connectors/subject-salt`, text),
    }),
    now: d.clock,
  });
  const build = (kind: string, config: Record<string, unknown>): VendorSource => {
    try {
      return vendorFactory(kind)!(config, vendorDeps(config, kind));
    } catch (e) {
      if (e instanceof MemoryError) throw e;
      throw new MemoryError("connector_config_invalid", (e as Error).message.slice(0, 300), undefined, 400);
    }
  };

  // A secret file the config names that exists with a mode looser than 0600 is refused at registration
  // (`insecure_file_mode`), as it would be at every sync; an absent one is reported when a sync first needs it.
  const checkSecrets = async (config: Record<string, unknown>): Promise<void> => {
    for (const p of secretPaths(config)) await files().read(p, "connector secret file");
  };

  return {
    list: async () => (await listConnectors(db.client)).map(view),
    async register(raw) {
      const b = parseWith(RegisterConnectorBody, raw);
      const kind = checkKind(b.kind);
      const instance = instanceName(b.instance);
      const path = configPath(d.configDir, kind, instance);
      let config: Record<string, unknown>;
      if (b.config !== undefined) {
        config = b.config;
        build(kind, config); // validates before anything is written
        await checkSecrets(config);
        await files().write(path, `${JSON.stringify(config, null, 2)}\n`);
      } else {
        config = await loadConfig(files(), path);
        build(kind, config);
        await checkSecrets(config);
      }
      const out = await db.write(async (tx) => {
        const r = await insertConnector(tx, kind, instance, d.clock().toISOString());
        await d.audit.append(tx, { action: "connector_register", target: `connector:${r.row.id}`, detail: { kind, instance, created: r.created } });
        return r;
      });
      return { created: out.created, connector: view(out.row), config_path: path };
    },
    async sync(o) {
      const kind = checkKind(o.kind);
      const first = o.configPath ? await loadConfig(files(), o.configPath) : undefined;
      const instance = o.configPath ? instanceFromPath(o.configPath, kind, first!) : instanceName(o.instance);
      const config = first ?? await loadConfig(files(), configPath(d.configDir, kind, instance));
      const source = build(kind, config);
      let row = await getConnector(db.client, kind, instance);
      row ??= (await db.write(async (tx) => {
        const r = await insertConnector(tx, kind, instance, d.clock().toISOString());
        await d.audit.append(tx, { action: "connector_register", target: `connector:${r.row.id}`, detail: { kind, instance, created: r.created } });
        return r;
      })).row;
      const domain = typeof config.domain === "string" && config.domain ? config.domain : undefined;
      return await runSync({
        write: d.write, audit: d.audit, applyCase: d.applyCase, db, sources: d.sources, clock: d.clock,
        floorSec: d.floorSec ?? 300, onPage: o.onPage,
      }, row, source, domain);
    },
  };
}
