/**
 * The kind table (issue 15): connector kind → vendor factory. The core looks a kind up here when it loads
 * `<config_dir>/connectors/{kind}-{instance}.json`; a kind not listed is refused (`connector_kind_unknown`).
 * Vendor modules register by adding one line (one line per kind keeps merges between branches trivial).
 */
import { custom } from "./custom.ts";
import { freshdesk } from "./freshdesk.ts";
import { githubSource } from "./github.ts";
import { jira } from "./jira.ts";
import { zendesk } from "./zendesk.ts";
import type { VendorFactory, VendorKind } from "./vendor.ts";

/** Every registered vendor factory, by kind. */
export const KINDS: Partial<Record<VendorKind, VendorFactory>> = {
  github: githubSource,
  zendesk,
  freshdesk,
  jira,
  custom,
};

/** The factory of a kind, or undefined when the kind is not built in. */
export function vendorFactory(kind: string): VendorFactory | undefined {
  return Object.prototype.hasOwnProperty.call(KINDS, kind) ? KINDS[kind as VendorKind] : undefined;
}

/** Kinds with a factory, sorted. */
export function knownKinds(): VendorKind[] {
  return (Object.keys(KINDS) as VendorKind[]).sort();
}
