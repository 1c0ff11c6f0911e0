/**
 * The sentinel strip of the read seam (SPEC §1 "Input hygiene"), step 6 of
 * `sanitizeForRead`: removes the special tokens chat models use to mark
 * turns, roles and the end of text, so stored content cannot pose as a
 * turn boundary or a system message when it reaches a model.
 *
 * Removed (case-insensitive):
 * - any `<|name|>` token, ASCII or fullwidth bar (`<|im_start|>`,
 *   `<|im_end|>`, `<|endoftext|>`, `<|eot_id|>`, `<|start_header_id|>`,
 *   `<|system|>`, `<｜begin▁of▁sentence｜>`, ...);
 * - Llama/Mistral markers `[INST]`, `[/INST]`, `<<SYS>>`, `<</SYS>>`,
 *   `[SYSTEM_PROMPT]`, `[/SYSTEM_PROMPT]`, `[AVAILABLE_TOOLS]`,
 *   `[/AVAILABLE_TOOLS]`, `[TOOL_CALLS]`, `[TOOL_RESULTS]`,
 *   `[/TOOL_RESULTS]`;
 * - sequence markers `<s>`, `</s>`, `<bos>`, `<eos>`, `<pad>`, `<unk>`;
 * - Gemma turn markers `<start_of_turn>`, `<end_of_turn>`.
 *
 * `<s>` is also the HTML strikethrough tag; losing that formatting is the
 * accepted price. Removal can join fragments into a new sentinel
 * (`<|im_<|x|>start|>`), so the strip runs to a fixed point.
 */

/** The literal sentinels of the list above (the `<|...|>` family is matched by shape). */
export const SENTINEL_LITERALS = [
  "[INST]", "[/INST]", "<<SYS>>", "<</SYS>>",
  "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]",
  "[TOOL_CALLS]", "[TOOL_RESULTS]", "[/TOOL_RESULTS]",
  "<s>", "</s>", "<bos>", "<eos>", "<pad>", "<unk>",
  "<start_of_turn>", "<end_of_turn>",
] as const;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Matches one sentinel of the documented list. */
export const SENTINEL_PATTERN = new RegExp(
  [String.raw`<[|｜][^\s<>|｜]{0,64}[|｜]>`, ...SENTINEL_LITERALS.map(escape)].join("|"),
  "giu",
);

/** Removes model-control sentinels, to a fixed point. */
export function stripSentinels(text: string): string {
  let current = text;
  for (;;) {
    const next = current.replace(SENTINEL_PATTERN, "");
    if (next === current) return next;
    current = next;
  }
}
