/** A progress bar on a TTY, one line per step otherwise; the summary on stdout either way (issue 22 item 6). */
import { stderrIsTTY, writeStderr } from "../runtime/platform.ts";

/** Progress reporter. */
export interface Progress {
  tick(label?: string): void;
  done(summary: string): void;
}

/** Creates a progress reporter for `total` steps. */
export function createProgress(total: number, title: string): Progress {
  const tty = stderrIsTTY();
  let n = 0;
  return {
    tick(label) {
      n++;
      // Issue 22 item 6: off a TTY (a log, a pipe, CI) one plain line per step, so a long run shows it is alive.
      if (!tty) {
        writeStderr(`${title} ${n}/${total}${label ? " " + label : ""}\n`);
        return;
      }
      const width = 30;
      const filled = total ? Math.round((n / total) * width) : width;
      const bar = "#".repeat(filled) + "-".repeat(width - filled);
      writeStderr(`\r${title} [${bar}] ${n}/${total}${label ? " " + label.slice(-40) : ""}\x1b[K`);
    },
    done(summary) {
      if (tty) writeStderr("\r\x1b[K");
      console.log(summary);
    },
  };
}
