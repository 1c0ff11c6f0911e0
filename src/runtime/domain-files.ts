/**
 * Where multi-database mode keeps each domain's libSQL file (issue 20, docs/scale-out.md "One database per domain"):
 * `<directory of the global database>/domains/<domain>.db`, with its `-wal` and `-shm` beside it. Domain names match
 * `^[a-z0-9][a-z0-9_-]{0,62}$` (SPEC §2.5), so a name is always a safe file name. Node and Deno.
 */
import { ensureParentDir, removeFile } from "./platform.ts";

/** File placement for the domain databases beside a global database file. */
export interface DomainFilePlaces {
  /** The domain's database path (its directory is created owner-only). */
  pathOf(domain: string): Promise<string>;
  /** Deletes the domain's database, WAL and shared-memory files; true when the database file existed. */
  remove(domain: string): Promise<boolean>;
}

/** Domain database files beside `globalPath`. */
export function domainFilesBeside(globalPath: string): DomainFilePlaces {
  const i = Math.max(globalPath.lastIndexOf("/"), globalPath.lastIndexOf("\\"));
  const dir = `${i < 0 ? "." : globalPath.slice(0, i)}/domains`;
  const pathFor = (domain: string) => {
    if (!/^[a-z0-9][a-z0-9_-]{0,62}$/.test(domain)) throw new Error(`not a domain name: ${JSON.stringify(domain)}`);
    return `${dir}/${domain}.db`;
  };
  return {
    async pathOf(domain) {
      const p = pathFor(domain);
      await ensureParentDir(p);
      return p;
    },
    async remove(domain) {
      const p = pathFor(domain);
      const existed = await removeFile(p);
      await removeFile(`${p}-wal`);
      await removeFile(`${p}-shm`);
      return existed;
    },
  };
}
