/**
 * Role presets and permissions (SPEC §5 item 3; names are this project's
 * choice, documented in openapi.yaml). A role is either a preset below or a
 * permission written directly (`read`, `write`, `workflow`, `pii:read`,
 * `admin:global`, `admin:<domain>`, `admin:*`). Unknown roles grant nothing.
 *
 * - `admin`: read, write, admin on every domain, workflow. Not `pii:read`:
 *   un-redacted reads are granted only explicitly.
 * - `reader`: read. `writer`: read, write.
 * - `agent`: read, write, and refused on workflow surfaces whatever else it holds.
 * - `workflow-operator`: read and the `workflow` action.
 * - `pii-reader`: `pii:read` (un-redacted reads at the read seam).
 */
import type { Principal } from "../auth/principal.ts";

/** A permission string. */
export type Permission = string;

/** The presets. */
export const ROLE_PRESETS: Readonly<Record<string, readonly Permission[]>> = Object.freeze({
  admin: ["read", "write", "admin:*", "workflow"],
  reader: ["read"],
  writer: ["read", "write"],
  agent: ["read", "write"],
  "workflow-operator": ["read", "workflow"],
  "pii-reader": ["pii:read"],
});

/** The role refused on workflow surfaces (SPEC §5 item 3). */
export const AGENT_ROLE = "agent";

const DIRECT = /^(read|write|workflow|pii:read|admin:\*|admin:[a-z0-9][a-z0-9_-]{0,63})$/;

/** Every permission the roles grant. */
export function permissionsOf(roles: readonly string[]): Set<Permission> {
  const out = new Set<Permission>();
  for (const r of roles) {
    const preset = ROLE_PRESETS[r];
    if (preset) for (const p of preset) out.add(p);
    else if (DIRECT.test(r)) out.add(r);
  }
  return out;
}

/** True when the principal holds `permission`. */
export function hasPermission(p: Principal | undefined, permission: Permission): boolean {
  return p !== undefined && permissionsOf(p.roles).has(permission);
}

/** True when the principal may read un-redacted content (SPEC §1 read seam). */
export function canReadPii(p: Principal | undefined): boolean {
  return hasPermission(p, "pii:read");
}

/** True when the permissions grant admin on `domain` (`admin:*` covers every domain). */
export function isAdminOn(perms: ReadonlySet<Permission>, domain: string): boolean {
  return perms.has("admin:*") || perms.has(`admin:${domain}`);
}
