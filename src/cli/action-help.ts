/**
 * What `cairn <command> --help` says about the commands that dispatch on an action or a connector kind (SPEC §4.12):
 * each action with its arguments, what it does, and one example line. `runCli` renders these as the `Actions:` and
 * `Examples:` sections of the command's help; `test/cli/command-help.test.ts` checks every action a command dispatches
 * on (every connector kind for `connect`) is here.
 */

/** One action as a command's help lists it. */
export interface ActionHelp {
  /** The action word and its arguments, e.g. `approve <id> --digest <d>`. */
  usage: string;
  /** What it does, one line. */
  summary: string;
  /** One runnable example, starting with `cairn <command> <action>`. */
  example: string;
}

/** The actions of each command that takes one, by command name. */
export const ACTION_HELP: Readonly<Record<string, readonly ActionHelp[]>> = {
  review: [
    { usage: "list [--status s]", summary: "Proposals with their content_digest (pending by default; approved, rejected)", example: "cairn review list --status pending" },
    { usage: "show <id>", summary: "One proposal: its text, screen verdict and content_digest", example: "cairn review show 12" },
    { usage: "approve <id> --digest <d>", summary: "Promote exactly the bytes you read (refused when they changed since)", example: "cairn review approve 12 --digest 4f1c9e… --supersedes 7" },
    { usage: "reject <id>", summary: "Reject a proposal; nothing becomes memory", example: "cairn review reject 12" },
  ],
  ump: [
    { usage: "keygen", summary: "Create the operator's Ed25519 key (0600) and print its did:key", example: "cairn ump keygen" },
    { usage: "token --verbs v --scope k=v --ttl t", summary: "Mint a capability token (printed as the last line)", example: "cairn ump token --verbs read,write --scope project=atlas --ttl 24h" },
    { usage: "revoke <jti>", summary: "Revoke a token by its id", example: "cairn ump revoke mfrggzdfmztwq2lknnwg23tpoa" },
    { usage: "export [--format md|ump] [--out f]", summary: "Export every record as UMP JSON or markdown", example: "cairn ump export --format md --out memory.ump.md" },
    { usage: "import <file>", summary: "Import a UMP export (JSON or markdown); exit 1 when a record is rejected", example: "cairn ump import memory.ump.md" },
  ],
  parcel: [
    { usage: "export --domain d [--since ts] --out f", summary: "Sign a domain's promoted rows into a parcel file", example: "cairn parcel export --domain runbooks --out runbooks.parcel.json" },
    { usage: "import --file f --expected-signer did [--domain d]", summary: "Verify and file a parcel's rows as pending proposals (a refused parcel exits 2)", example: "cairn parcel import --file runbooks.parcel.json --expected-signer did:key:z6Mk…" },
    { usage: "ledger [--domain d]", summary: "Every parcel sent and received, oldest first", example: "cairn parcel ledger --domain runbooks" },
  ],
  migrate: [
    { usage: "multi-db [--domain d] [--dry-run]", summary: "Move a single-file store's domains into one database each (server stopped)", example: "cairn migrate multi-db --dry-run" },
  ],
  connect: [
    { usage: "github --app-id N --install-id N --key-file f --repo o/r", summary: "GitHub issues through a GitHub App (key file mode 0600)", example: "cairn connect github --app-id 123456 --install-id 7890123 --key-file ./app.pem --repo acme/widgets" },
    { usage: "zendesk --from config.json", summary: "Zendesk tickets as governed cases", example: "cairn connect zendesk --instance acme --from ./zendesk-acme.json" },
    { usage: "freshdesk --from config.json", summary: "Freshdesk tickets as governed cases", example: "cairn connect freshdesk --instance acme --from ./freshdesk-acme.json" },
    { usage: "jira --from config.json", summary: "Jira Service Management requests as governed cases", example: "cairn connect jira --instance acme --from ./jira-acme.json" },
    { usage: "custom --from config.json", summary: "A shim that answers CrmCase JSON", example: "cairn connect custom --instance helpdesk --from ./custom-helpdesk.json" },
  ],
  workflow: [
    { usage: "note <run> <text> [--reask]", summary: "An audited operator note on a governed run (--reask also records a re-ask)", example: "cairn workflow note 42 \"Called the customer back\" --reask" },
  ],
  kb: [
    { usage: "build --domain d --out dir --base-url url", summary: "Write the static knowledge-base site from a domain's KCS articles", example: "cairn kb build --domain support --out ./site --base-url https://help.example.com" },
  ],
};

/** The `Actions:` (`Kinds:` for connect) and `Examples:` help sections of `command`, or none when it takes no action. */
export function actionSections(command: string): { title: string; body: string }[] {
  const actions = ACTION_HELP[command];
  if (!actions) return [];
  const width = Math.max(...actions.map((a) => a.usage.length));
  return [
    { title: command === "connect" ? "Kinds" : "Actions", body: actions.map((a) => `  ${a.usage.padEnd(width)}  ${a.summary}`).join("\n") },
    { title: "Examples", body: actions.map((a) => `  ${a.example}`).join("\n") },
  ];
}
