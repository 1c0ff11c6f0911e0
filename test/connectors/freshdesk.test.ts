/** Freshdesk through the whole sync: registry, config files, page commits, applyCase, sweep (issue 15). */
import { caseConnectorSuite, secret } from "./_case-e2e.ts";
import { FD_KEY, startFreshdeskFake } from "./fakes/freshdesk-fake.ts";

caseConnectorSuite({
  kind: "freshdesk",
  source: "freshdesk",
  phrase: "invoice",
  start: (n, linkOrigin) => startFreshdeskFake(n, 2, linkOrigin),
  config: (fake, dir) => ({ base_url: fake.origin, org: "acme", api_key_file: secret(dir, "freshdesk-acme.key", FD_KEY) }),
  path: (i) => `freshdesk/acme/tickets/${i}`,
  edit: (fake, i, text) => fake.edit(i, `Invoice PDF blank for account ${i}`, text),
  remove: (fake, i) => fake.remove(i),
});
