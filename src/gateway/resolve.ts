/**
 * Username resolution (SPEC §4.13 "Usernames are resolved server-side"): a
 * `u:<username>` recipient from `validate.ts` is looked up through
 * signal-cli's `getUserStatus` (`{username: [...]}` → `[{username, uuid,
 * isRegistered}]`, signal-cli(1)) and replaced by its service id; a phone is
 * replaced by its seeded service id when the recipient cache holds one.
 * Resolved usernames are cached (the TTL is on the phone leg only, SPEC §8).
 */
import type { RecipientCache } from "./limits.ts";
import type { SignalBackend } from "./signal-cli.ts";
import { FieldError, USERNAME_PREFIX } from "./validate.ts";

/** The service ids to send to, in order; `fieldOf(i)` names the field of the i-th recipient for a refusal. */
export async function resolveRecipients(recips: string[], fieldOf: (i: number) => string, d: { signal: SignalBackend; cache: RecipientCache }): Promise<string[]> {
  const out: string[] = [];
  for (const [i, r] of recips.entries()) {
    const cached = d.cache.get(r);
    if (cached !== undefined) out.push(cached);
    else if (r.startsWith(USERNAME_PREFIX)) out.push(await lookupUsername(r, fieldOf(i), d));
    else out.push(r);
  }
  return out;
}

async function lookupUsername(key: string, field: string, d: { signal: SignalBackend; cache: RecipientCache }): Promise<string> {
  const username = key.slice(USERNAME_PREFIX.length);
  const list = await d.signal.call("getUserStatus", { username: [username] }) as { username?: string; uuid?: string | null; isRegistered?: boolean }[] | null;
  const hit = (Array.isArray(list) ? list : []).find((s) => typeof s?.uuid === "string" && s.uuid !== "" && s.isRegistered !== false);
  if (!hit) throw new FieldError(field, `${field} names a Signal username that is not registered`);
  d.cache.set(key, hit.uuid!);
  return hit.uuid!;
}
