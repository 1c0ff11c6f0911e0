/**
 * The page shell of the operator web client (SPEC §4.3, §4.8 `/app`): one
 * layout for the five panels, with a skip link, the panel navigation, a
 * live status region, the token dialog (asked once, kept for the tab) and
 * the keyboard help. The shell holds no data: `data-src` names the gated
 * fragment the client script loads with the bearer (src/web/README.md).
 */
import type { Child } from "hono/jsx";
import { VERSION } from "../core/version.ts";

/** The five panels: path, navigation label, page title and fragment. */
export const PANELS = [
  { id: "review", path: "/app", label: "Review", title: "Review", src: "/app/fragments/review" },
  { id: "quarantine", path: "/app/quarantine", label: "Quarantine", title: "Quarantine", src: "/app/fragments/quarantine" },
  { id: "ops", path: "/app/ops", label: "Memory operations", title: "Memory operations", src: "/app/fragments/ops" },
  { id: "register", path: "/app/register", label: "Agent memory register", title: "Agent memory register", src: "/app/fragments/register" },
  { id: "recall", path: "/app/recall", label: "Recall explorer", title: "Recall explorer", src: "" },
] as const;

/** One panel's descriptor. */
export type Panel = (typeof PANELS)[number];

const asset = (name: string) => `/app/assets/${name}?v=${VERSION}`;

/** The full page for one panel; `tools` sit above the loaded fragment. */
export function Page(props: { panel: Panel; intro: string; tools?: Child }) {
  const p = props.panel;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${p.title} · Cairn`}</title>
        <link rel="stylesheet" href={asset("app.css")} />
        <script src={asset("app.js")} defer></script>
      </head>
      <body data-panel={p.id}>
        <a class="skip" href="#main">Skip to the panel</a>
        <header class="top">
          <p class="brand"><a href="/app">Cairn</a> <span class="ver">{VERSION}</span></p>
          <nav aria-label="Panels">
            <ul>
              {PANELS.map((q) => (
                <li><a href={q.path} aria-current={q.id === p.id ? "page" : undefined}>{q.label}</a></li>
              ))}
            </ul>
          </nav>
          <button type="button" class="link" id="signout" hidden>Forget token</button>
        </header>
        <main id="main" tabindex={-1}>
          <h1>{p.title}</h1>
          <p class="intro">{props.intro}</p>
          {props.tools}
          <p id="status" class="status" role="status" aria-live="polite"></p>
          <div id="panel" data-src={p.src} aria-busy="false">
            {p.src ? <p class="muted">Loading…</p> : null}
          </div>
        </main>
        <footer class="foot">
          <p>
            <a href="/openapi.yaml">API reference</a> · Press <kbd>?</kbd> for keyboard help
          </p>
        </footer>
        <dialog id="token-dialog" aria-labelledby="token-title">
          <form id="token-form" method="dialog">
            <h2 id="token-title">Sign in for this tab</h2>
            <p>This server needs its bearer token. It is kept in this tab only (session storage) and sent as <code>Authorization: Bearer</code>.</p>
            <label for="token-input">Bearer token</label>
            <input id="token-input" name="token" type="password" autocomplete="off" required />
            <p id="token-error" class="error" role="alert"></p>
            <div class="actions">
              <button type="submit" class="primary">Use token</button>
            </div>
          </form>
        </dialog>
        <dialog id="help" aria-labelledby="help-title">
          <h2 id="help-title">Keyboard</h2>
          <dl class="keys">
            <dt><kbd>j</kbd> / <kbd>k</kbd></dt><dd>Next / previous proposal</dd>
            <dt><kbd>a</kbd></dt><dd>Approve the selected proposal</dd>
            <dt><kbd>r</kbd></dt><dd>Reject the selected proposal (with the reason typed, if any)</dd>
            <dt><kbd>?</kbd></dt><dd>Show or hide this help</dd>
            <dt><kbd>Esc</kbd></dt><dd>Close a dialog</dd>
          </dl>
          <form method="dialog"><button type="submit">Close</button></form>
        </dialog>
      </body>
    </html>
  );
}
