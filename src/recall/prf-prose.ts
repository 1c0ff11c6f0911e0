/**
 * What pseudo-relevance feedback may draw expansion words from (SPEC §1
 * step 4; issue 22 item 4): the prose of a feedback document, not its
 * markdown scaffolding. Front matter, heading lines, `#tags`, observation
 * categories (`- [fact] …`) and relation-line types (`- works_at [[X]]`) are
 * blanked, so notes that share only a tag or a boilerplate heading
 * ("Observations") never lend PRF a word that pulls in unrelated notes.
 */

const FRONT_MATTER = /^\uFEFF?---[^\n]*\n[\s\S]*?\n---[ \t]*(?:\n|$)/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t][^\n]*)?$/gm;
const TAG = /(^|\s)#[\p{L}\p{N}][\p{L}\p{N}_/-]*/gu;
const CATEGORY = /^(\s{0,3}[-*+]\s+)\[(?!\[)[^[\]\n]{1,64}\]/gm;
const RELATION_TYPE = /^(\s{0,3}[-*+]\s+)[A-Za-z][A-Za-z0-9_:-]*(?=\s+\[\[)/gm;

/** The prose of a feedback text. */
export function feedbackProse(text: string): string {
  return text.replace(FRONT_MATTER, "").replace(HEADING, "").replace(TAG, "$1").replace(CATEGORY, "$1").replace(RELATION_TYPE, "$1");
}
