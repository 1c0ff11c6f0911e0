/**
 * The code-to-status map (STYLE rule 7) and the error envelope of SPEC §7.
 * Codes the spec gives a status keep it; codes it leaves open are this
 * project's choice, documented in openapi.yaml.
 */
import { isMemoryError } from "../core/errors.ts";

const STATUS: Record<string, number> = {
  unauthorized: 401,
  forbidden_scope: 403,
  forbidden: 403,
  route_ungated: 403,
  origin_refused: 403,
  promotion_disabled: 403,
  not_found: 404,
  digest_mismatch: 409,
  signer_alias: 409,
  conflict: 409,
  unsupported_media_type: 415,
  // SPEC §7 leaves these statuses open (issue 14's choices, marked x-cairn-choice on the parcel routes).
  operator_key_missing: 409,
  parcel_too_large: 422,
  source_invalid: 422,
  headers_too_large: 431,
  rate_limited: 429,
  internal_error: 500,
  recall_unavailable: 503,
  deadline_exceeded: 503,
  capacity_exceeded: 507,
};

/** HTTP status for an error code; 400 unless mapped. */
export function statusFor(code: string): number {
  return STATUS[code] ?? 400;
}

/** The SPEC §7 envelope. */
export interface ErrorEnvelope {
  error: { code: string; message: string; details?: Record<string, unknown> };
}

/** Builds `{status, body}` for any thrown value; unknown errors become a safe 500. */
export function toErrorResponse(e: unknown): { status: number; body: ErrorEnvelope } {
  if (isMemoryError(e)) {
    const body: ErrorEnvelope = { error: { code: e.code, message: e.message } };
    if (e.details !== undefined) body.error.details = e.details;
    return { status: e.status ?? statusFor(e.code), body };
  }
  // SPEC §7: messages are safe text with no paths, SQL or secrets.
  return { status: 500, body: { error: { code: "internal_error", message: "internal error" } } };
}
