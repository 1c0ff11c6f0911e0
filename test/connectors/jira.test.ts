/** Jira Service Management through the whole sync: registry, config files, page commits, applyCase, sweep (issue 15). */
import { caseConnectorSuite, secret } from "./_case-e2e.ts";
import { JIRA_EMAIL, JIRA_TOKEN, startJiraFake } from "./fakes/jira-fake.ts";

caseConnectorSuite({
  kind: "jira",
  source: "jira",
  phrase: "drops hourly",
  start: (n, linkOrigin) => startJiraFake(n, 2, linkOrigin),
  config: (fake, dir) => ({ base_url: fake.origin, org: "acme", email: JIRA_EMAIL, token_file: secret(dir, "jira-acme.token", JIRA_TOKEN) }),
  path: (i) => `jira/acme/requests/HELP-${i}`,
  edit: (fake, i, text) => fake.edit(`HELP-${i}`, `VPN drops every hour (site ${i})`, text),
  remove: (fake, i) => fake.remove(`HELP-${i}`),
});
