/**
 * Custom ticketing shims (issue 15; SPEC §9 "A custom shim config is `custom-*.json` with `{base_url, auth_type,
 * case_list_path, case_detail_path}`, mode 0600"). The shim already answers CrmCase-shaped JSON, so there is no
 * field mapping here (SPEC §9: "no generic field-mapping runtime"), only the protocol in `src/connectors/README.md`
 * "Custom shims": `GET {case_list_path}[?cursor=…]` → `{cases: [{case_id}], next_cursor}` and
 * `GET {case_detail_path with {id}}` → a CrmCase (or `{case: CrmCase}`). What Cairn owns is pinned, whatever the shim
 * says: `source` is the configured label, `org_id` the configured org, `case_ref` derived, and the shim's
 * `subject_ref` is treated as a raw identity and salted-hashed again; the case text is scrubbed like every vendor's.
 */
import { isMemoryError } from "../core/errors.ts";
import { parseCrmCase } from "../workflow/crm-case.ts";
import {
  baseUrlOf, basicAuth, caseTitle, configString, idOf, mapLimit, objectOf, optionalString, orgOf, recordOf, scrub,
  secretOnce, str, urlOf,
} from "./_case-common.ts";
import { VendorError, type ConnectorRecord, type VendorDeps, type VendorFactory, type VendorSource } from "./vendor.ts";

const LABEL = /^[a-z][a-z0-9_-]{0,31}$/;
/** Built-in vendor labels a shim may not borrow (its cases would pose as theirs). */
const RESERVED = new Set(["github", "zendesk", "freshdesk", "jira"]);
const MAX_LOOPS = 1_000_000;
const MAX_BODY = 1_000_000;

/** The custom-shim vendor factory. */
export const custom: VendorFactory = (config, deps) => createCustom(config, deps);

function createCustom(config: Record<string, unknown>, deps: VendorDeps): VendorSource {
  const base = baseUrlOf(config);
  const label = optionalString(config, "source") ?? optionalString(config, "instance") ?? "";
  if (!LABEL.test(label) || RESERVED.has(label)) throw new VendorError("refused", "Connector config: source must match ^[a-z][a-z0-9_-]{0,31}$ and not be a built-in vendor label");
  const org = optionalString(config, "org") !== undefined ? orgOf(config, base) : label;
  const listPath = configString(config, "case_list_path");
  const detailPath = configString(config, "case_detail_path");
  if (!detailPath.includes("{id}")) throw new VendorError("refused", "Connector config: case_detail_path must contain {id}");
  const [listPathname, listQuery] = splitQuery(listPath);
  urlOf(base, listPathname);
  const authType = configString(config, "auth_type");
  if (!["bearer", "basic", "header", "none"].includes(authType)) throw new VendorError("refused", "Connector config: auth_type must be bearer, basic, header or none");
  const secret = authType === "none" ? undefined : secretOnce(deps, configString(config, "token_file"));
  const username = authType === "basic" ? configString(config, "username") : undefined;
  const headerName = authType === "header" ? configString(config, "header_name").toLowerCase() : undefined;
  if (headerName !== undefined && !/^x-[a-z0-9-]{1,62}$/.test(headerName)) throw new VendorError("refused", "Connector config: header_name must be an X- header");

  async function headers(): Promise<Record<string, string>> {
    const h: Record<string, string> = { accept: "application/json" };
    if (authType === "bearer") h.authorization = `Bearer ${await secret!()}`;
    else if (authType === "basic") h.authorization = basicAuth(username!, await secret!());
    else if (authType === "header") h[headerName!] = await secret!();
    return h;
  }

  async function list(cursor: string | null) {
    const url = urlOf(base, listPathname, { ...listQuery, cursor: cursor ?? undefined });
    const body = objectOf((await deps.http.getJson(url, await headers())).body, "Shim case list");
    if (!Array.isArray(body.cases)) throw new VendorError("malformed", "Shim case list: cases is not an array");
    const ids = body.cases.map((c) => idOf(objectOf(c, "Shim case list entry").case_id, "Shim case list entry"));
    const next = body.next_cursor === null || body.next_cursor === undefined ? null : str(body.next_cursor);
    if (next === undefined) throw new VendorError("malformed", "Shim case list: next_cursor must be a string or null");
    if (next !== null && next === cursor) throw new VendorError("repeated_cursor", "Shim case list repeated its cursor");
    return { ids, next };
  }

  const detailUrl = (id: string) => {
    const [p, q] = splitQuery(detailPath.replaceAll("{id}", encodeURIComponent(id)));
    return urlOf(base, p, q);
  };

  async function toRecord(id: string): Promise<ConnectorRecord> {
    const url = detailUrl(id);
    const raw = objectOf((await deps.http.getJson(url, await headers())).body, "Shim case");
    const shim = objectOf("case" in raw ? raw.case : raw, "Shim case");
    if (shim.case_id !== undefined && String(shim.case_id) !== id) throw new VendorError("malformed", "Shim case: case_id differs from the listed id");
    const identity = str(shim.subject_ref);
    const bodyText = typeof shim.body_markdown === "string" ? scrub(shim.body_markdown).slice(0, MAX_BODY) : undefined;
    let c;
    try {
      c = parseCrmCase({
        ...shim, source: label, org_id: org, case_id: id, case_ref: undefined,
        title: caseTitle(str(shim.title)),
        subject_ref: await deps.subjectRef(identity !== undefined ? `custom:${label}:${identity}` : `custom:${label}:case:${id}`),
        ...(bodyText !== undefined ? { body_markdown: bodyText } : {}),
      });
    } catch (e) {
      // The field name only: the shim's values may hold personal data and never reach a stored message.
      if (isMemoryError(e)) throw new VendorError("malformed", `Shim case ${id}: ${String(e.details?.field ?? "case")} is not valid CrmCase`);
      throw e;
    }
    const tags = Array.isArray(shim.tags) ? shim.tags.filter((t): t is string => typeof t === "string").slice(0, 50) : [];
    return recordOf({ kind: "custom", path: `custom/${label}/cases/${id}`, sourceUrl: url, tags, vendorStatus: c.status, crmCase: c });
  }

  return {
    kind: "custom",
    async page(cursor) {
      const p = await list(cursor);
      return { records: await mapLimit(p.ids, 4, toRecord), cursor: p.next };
    },
    async livePaths() {
      const ids = new Set<string>();
      let cursor: string | null = null;
      for (let i = 0; i < MAX_LOOPS; i++) {
        const p = await list(cursor);
        for (const id of p.ids) ids.add(id);
        if (p.next === null) break;
        cursor = p.next;
      }
      return [...ids].map((id) => `custom/${label}/cases/${id}`);
    },
  };
}

/** `"/cases?status=all"` → `["/cases", {status: "all"}]`. */
function splitQuery(path: string): [string, Record<string, string>] {
  const i = path.indexOf("?");
  if (i === -1) return [path, {}];
  return [path.slice(0, i), Object.fromEntries(new URLSearchParams(path.slice(i + 1)))];
}
