/**
 * The parcel bodies (SPEC §2.10, §4.10; shapes this project's choice) as schemas that validate and type:
 * `POST /parcels/export` `{domain, since?}` and `POST /parcels/import` `{expected_signer, parcel, domain?}`. The
 * parcel's envelope is checked here (`parcel_invalid`); its signature and manifest contents by `import-parcel.ts`.
 */
import { z } from "zod";
import { body, specError } from "../core/schema.ts";
import { domainNameField } from "../domains/domain-name.ts";

const notObject = specError("invalid_request", "body must be a JSON object");
const badSince = specError("invalid_request", "since must be an ISO-8601 timestamp", { field: "since" });

/** `POST /parcels/export`. */
export const ParcelExportBody = body({
  domain: domainNameField("domain").meta({ description: "The domain to ship" }),
  since: z.string({ error: badSince }).refine((v) => !Number.isNaN(Date.parse(v)), { error: badSince })
    .transform((v) => new Date(Date.parse(v)).toISOString()).optional()
    .meta({ format: "date-time", description: "Only rows created at or after this time" }),
}, { error: notObject, nulls: ["domain"], meta: { id: "ParcelExportRequest", "x-cairn-choice": true } });

/** What `POST /parcels/export` takes. */
export type ParcelExportInput = z.input<typeof ParcelExportBody>;

const parcelInvalid = (message: string, field: string) => specError("parcel_invalid", message, { field });
const signerRequired = specError("signer_required", "expected_signer is required: the did:key you expect the parcel to be signed by", { field: "expected_signer" });

/** `POST /parcels/import`. */
export const ParcelImportBody = body({
  expected_signer: z.string({ error: signerRequired }).refine((v) => v.trim() !== "", { error: signerRequired })
    .meta({ description: "The did:key the parcel must be signed by (400 signer_required when absent)", example: "did:key:z6Mk…" }),
  parcel: z.object({
    manifest: z.record(z.string(), z.unknown(), { error: parcelInvalid("parcel.manifest must be an object", "parcel.manifest") })
      .meta({ description: "The ParcelManifest as signed (its RFC 8785 canonical JSON)" }),
    signature: z.string({ error: parcelInvalid("parcel.signature must be a string", "parcel.signature") }).meta({ example: "ed25519:…" }),
    signed_by: z.string({ error: parcelInvalid("parcel.signed_by must be a string", "parcel.signed_by") }).meta({ example: "did:key:z6Mk…" }),
  }, { error: parcelInvalid("parcel must be an object {manifest, signature, signed_by}", "parcel") }).meta({ description: "The parcel as exported" }),
  domain: z.string({ error: specError("domain_invalid", "domain must be a string", { field: "domain" }) }).optional()
    .meta({ description: "Target domain; default the manifest's source_domain (created when absent)" }),
}, { error: notObject, meta: { id: "ParcelImportRequest", "x-cairn-choice": true } });

/** What `POST /parcels/import` takes. */
export type ParcelImportInput = z.input<typeof ParcelImportBody>;
