/** Zendesk through the whole sync: registry, config files, page commits, applyCase, sweep (issue 15). */
import { caseConnectorSuite, secret } from "./_case-e2e.ts";
import { startZendeskFake, ZD_EMAIL, ZD_TOKEN } from "./fakes/zendesk-fake.ts";

caseConnectorSuite({
  kind: "zendesk",
  source: "zendesk",
  phrase: "Export",
  start: (n, linkOrigin) => startZendeskFake(n, 2, linkOrigin),
  config: (fake, dir) => ({ base_url: fake.origin, org: "acme", email: ZD_EMAIL, token_file: secret(dir, "zendesk-acme.token", ZD_TOKEN) }),
  path: (i) => `zendesk/acme/tickets/${i}`,
  edit: (fake, i, text) => fake.edit(i, `Export fails on report ${i}`, text),
  remove: (fake, i) => fake.remove(i),
});
