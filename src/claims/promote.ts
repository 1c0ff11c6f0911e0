/**
 * Claim promotion (SPEC §3 "Related rules", §4.11, §7): the route always
 * answers `promotion_disabled`, in every configuration and for every actor.
 * It is a compile-time constant with no switch: this module reads no
 * configuration, no store and no caller, and imports nothing but the error
 * class (`test/claims/promote.test.ts` holds it to that).
 */
import { MemoryError } from "../core/errors.ts";

/** The one promotion setting there is. */
export const CLAIM_PROMOTION = "disabled" as const;

/** Refuses every promotion (403 `promotion_disabled`, src/http/status.ts). */
export function promoteClaim(): never {
  throw new MemoryError("promotion_disabled", "Claim promotion is disabled: claims never promote to memory", { promotion: CLAIM_PROMOTION });
}
