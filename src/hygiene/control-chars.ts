/**
 * The control-character strip of the read seam (SPEC §1 "Input hygiene"),
 * step 4 of `sanitizeForRead`: C0 controls except tab and newline, DEL and
 * C1 controls are removed; NBSP (U+00A0) is preserved.
 *
 * Carriage return (U+000D) is a C0 control that is neither tab nor newline,
 * so it is stripped: CRLF text reads back with LF line ends, and a lone CR
 * cannot be used to overwrite what a terminal shows.
 */

/** Matches C0 (except U+0009 and U+000A), DEL and C1 controls. */
export const CONTROL_PATTERN = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** Removes C0 controls except tab and newline, DEL and C1 controls (SPEC §1). */
export function stripControl(text: string): string {
  return text.replace(CONTROL_PATTERN, "");
}
