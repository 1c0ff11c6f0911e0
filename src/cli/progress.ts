/** A progress bar on a TTY, one line per step otherwise; the summary on stdout either way (issue 22 item 6). */
import { stderrIsTTY, writeStderr } from "../runtime/platform.ts";

/** Progress reporter. */
export interface Progress {
  tick(label?: string): void;
  done(summary: string): void;
}

/** Where a command's output goes: the process's streams, or a caller's sinks (the in-process CLI, `runCli`). */
export interface CliOutput {
  /** One line of stdout. */
  out(line: string): void;
  /** Raw stderr text (progress redraws carry their own `\r`/`\n`). */
  err(text: string): void;
  /** Whether stderr is a terminal (a progress bar) or a log (one line per step). */
  errIsTTY: boolean;
}

/** The process's own stdout and stderr. */
export const processOutput: CliOutput = { out: (l) => console.log(l), err: writeStderr, errIsTTY: stderrIsTTY() };

/** Creates a progress reporter for `total` steps. */
export function createProgress(total: number, title: string, io: CliOutput = processOutput): Progress {
  const tty = io.errIsTTY;
  let n = 0;
  return {
    tick(label) {
      n++;
      // Issue 22 item 6: off a TTY (a log, a pipe, CI) one plain line per step, so a long run shows it is alive.
      if (!tty) {
        io.err(`${title} ${n}/${total}${label ? " " + label : ""}\n`);
        return;
      }
      const width = 30;
      const filled = total ? Math.round((n / total) * width) : width;
      const bar = "#".repeat(filled) + "-".repeat(width - filled);
      io.err(`\r${title} [${bar}] ${n}/${total}${label ? " " + label.slice(-40) : ""}\x1b[K`);
    },
    done(summary) {
      if (tty) io.err("\r\x1b[K");
      io.out(summary);
    },
  };
}
