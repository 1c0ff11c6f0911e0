/** A custom ticketing shim through the whole sync: registry, config files, page commits, applyCase, sweep (issue 15). */
import { caseConnectorSuite, secret } from "./_case-e2e.ts";
import { SHIM_TOKEN, startShimFake } from "./fakes/custom-shim-fake.ts";

caseConnectorSuite({
  kind: "custom",
  source: "helpdesk",
  phrase: "reboots at",
  start: (n, linkOrigin) => startShimFake(n, 2, linkOrigin),
  config: (fake, dir) => ({
    base_url: fake.origin, auth_type: "bearer", case_list_path: "/v1/cases", case_detail_path: "/v1/cases/{id}", source: "helpdesk",
    token_file: secret(dir, "custom-acme.token", SHIM_TOKEN),
  }),
  path: (i) => `custom/helpdesk/cases/c-${i}`,
  edit: (fake, i, text) => fake.edit(`c-${i}`, `Router reboots nightly (${i})`, `Router ${i} reboots at 02:00. ${text}`),
  remove: (fake, i) => fake.remove(`c-${i}`),
});
