/**
 * Gate rows (SPEC §5 item 3): what a route demands. Levels: `read`,
 * `write`, `admin` on global or on a domain, the `workflow` action, and
 * `signed-webhook` for inbound channel envelopes that authenticate by a
 * Standard-Webhooks signature instead of a bearer (SPEC §5 item 10: the
 * gateway holds no service token). `capability` marks routes where a UMP
 * capability token is accepted; its verbs and scope are checked per operation.
 */
import type { Verb } from "../ump/types.ts";

/** What a route demands of its caller. */
export type Gate =
  | { level: "read"; capability?: Verb }
  | { level: "write"; capability?: Verb }
  | { level: "admin"; on: "global" }
  /** Admin on the domain named by a path parameter. */
  | { level: "admin"; on: "domain"; param: string }
  /** Admin on a domain named in the request body: checked again by the handler (`assertDomainAdmin`). */
  | { level: "admin"; on: "body-domain" }
  /**
   * Any authenticated bearer, whatever its roles (the agent and roleless principals included): for the claim
   * promote route, which answers every actor the same constant refusal (SPEC §3, issue 17).
   */
  | { level: "authenticated" }
  /** `signed: true` also admits a Standard-Webhooks signed request with the channel secret (the gateway's mount, SPEC §5 item 10). */
  | { level: "workflow"; signed?: true }
  | { level: "signed-webhook" };

/** A short human label of a gate, e.g. `admin on domain :name`. */
export function describeGate(g: Gate): string {
  switch (g.level) {
    case "admin":
      return g.on === "global" ? "admin on global" : g.on === "domain" ? `admin on domain :${g.param}` : "admin on the body's domain";
    case "signed-webhook":
      return "signed webhook";
    case "workflow":
      return g.signed ? "workflow or signed webhook" : "workflow";
    default:
      return "capability" in g && g.capability ? `${g.level} (capability verb ${g.capability})` : g.level;
  }
}
