/**
 * Calendar dates of conversations (issue 24 item 3): a session's date as a
 * client writes it (`2023-05-08`, `2023-05-08T13:56:00Z`, LoCoMo's
 * `1:56 pm on 8 May, 2023`, `8 May 2023`, `May 8, 2023`), relative phrases
 * in a turn ("yesterday", "last Friday", "two weeks ago") resolved against
 * that date, and explicit dates named in a query. Pure and deterministic:
 * UTC calendar arithmetic only, no locale, no clock.
 */

/** A calendar span: first and last day (ISO `YYYY-MM-DD`, inclusive). */
export interface DaySpan {
  from: string;
  to: string;
}

/** A relative phrase of a turn resolved against its session date. */
export interface ResolvedDate extends DaySpan {
  /** The phrase as written ("last Friday"). */
  text: string;
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const MONTH_RE = "(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, couple: 2, few: 3, several: 3,
};
const DAY = 86_400_000;

const monthIndex = (m: string): number => MONTHS.findIndex((full) => full.startsWith(m.toLowerCase().slice(0, 3)));
const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const utc = (y: number, m: number, d: number): number => Date.UTC(y, m, d);

function validDay(y: number, m: number, d: number): number | undefined {
  if (m < 0 || m > 11 || d < 1 || d > 31 || y < 1000 || y > 9999) return undefined;
  const ms = utc(y, m, d);
  return new Date(ms).getUTCDate() === d ? ms : undefined;
}

/** The day (UTC midnight, epoch ms) a session date names, or undefined when it is not a recognisable date. */
export function parseSessionDay(text: string): number | undefined {
  const s = text.trim().toLowerCase();
  let m = /^(\d{4})-(\d{2})-(\d{2})/.exec(s);
  if (m) return validDay(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  m = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH_RE}\\.?,?\\s+(\\d{4})\\b`).exec(s);
  if (m) return validDay(Number(m[3]), monthIndex(m[2]), Number(m[1]));
  m = new RegExp(`\\b${MONTH_RE}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`).exec(s);
  if (m) return validDay(Number(m[3]), monthIndex(m[1]), Number(m[2]));
  return undefined;
}

/** Writes a day as `7 May 2023` (the form turns and questions use, so it also matches lexically). */
export function spellDay(day: string): string {
  const [y, m, d] = day.split("-").map(Number);
  return `${d} ${MONTHS[m - 1][0].toUpperCase()}${MONTHS[m - 1].slice(1)} ${y}`;
}

function span(fromMs: number, toMs: number, text: string): ResolvedDate {
  return { text, from: iso(fromMs), to: iso(toMs) };
}

function count(word: string): number | undefined {
  return /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS[word];
}

// Ordered: longer phrases first, so "last week" is not also read as a weekday or a bare "week".
const RELATIVE = new RegExp(
  [
    "\\b(yesterday|today|tonight|this morning|last night|the day before yesterday|tomorrow)\\b",
    `\\b(last|this past|past|this|next)\\s+(${WEEKDAYS.join("|")}|weekend|week|month|year)\\b`,
    "\\b(\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a couple of|couple of|a few|few|several)\\s+(day|week|month|year)s?\\s+ago\\b",
  ].join("|"),
  "gi",
);

/** Resolves the relative date phrases of a turn against its session day (epoch ms of UTC midnight). */
export function resolveRelativeDates(text: string, sessionDay: number): ResolvedDate[] {
  const out: ResolvedDate[] = [];
  const seen = new Set<string>();
  const d = new Date(sessionDay);
  const y = d.getUTCFullYear(), mo = d.getUTCMonth(), dow = d.getUTCDay();
  for (const m of text.matchAll(RELATIVE)) {
    const phrase = m[0];
    let r: ResolvedDate | undefined;
    if (m[1]) {
      const w = m[1].toLowerCase();
      const shift = w === "yesterday" || w === "last night" ? -1 : w === "the day before yesterday" ? -2 : w === "tomorrow" ? 1 : 0;
      r = span(sessionDay + shift * DAY, sessionDay + shift * DAY, phrase);
    } else if (m[2]) {
      const which = m[2].toLowerCase().replace("this past", "last").replace("past", "last");
      const unit = m[3].toLowerCase();
      const wd = WEEKDAYS.indexOf(unit);
      if (wd >= 0) {
        // "last Friday": the most recent Friday before the session day; "this/next Friday": the coming one.
        const back = ((dow - wd + 7) % 7) || 7;
        const fwd = ((wd - dow + 7) % 7) || 7;
        const at = which === "last" ? sessionDay - back * DAY : sessionDay + (which === "next" ? fwd : fwd % 7) * DAY;
        r = span(at, at, phrase);
      } else if (unit === "weekend") {
        const sat = which === "last" ? sessionDay - (((dow - 6 + 7) % 7) || 7) * DAY : sessionDay + ((6 - dow + 7) % 7) * DAY + (which === "next" ? 7 * DAY : 0);
        r = span(sat, sat + DAY, phrase);
      } else if (unit === "week") {
        const k = which === "last" ? -1 : which === "next" ? 1 : 0;
        const monday = sessionDay - ((dow + 6) % 7) * DAY + k * 7 * DAY;
        r = span(monday, monday + 6 * DAY, phrase);
      } else if (unit === "month") {
        const k = which === "last" ? -1 : which === "next" ? 1 : 0;
        r = span(utc(y, mo + k, 1), utc(y, mo + k + 1, 0), phrase);
      } else {
        const k = which === "last" ? -1 : which === "next" ? 1 : 0;
        r = span(utc(y + k, 0, 1), utc(y + k, 11, 31), phrase);
      }
    } else if (m[4]) {
      const n = count(m[4].toLowerCase().replace(/^a\s+/, "").replace(/\s+of$/, "")) ?? 1;
      const unit = m[5].toLowerCase();
      if (unit === "day") r = span(sessionDay - n * DAY, sessionDay - n * DAY, phrase);
      else if (unit === "week") r = span(sessionDay - n * 7 * DAY - 3 * DAY, sessionDay - n * 7 * DAY + 3 * DAY, phrase);
      else if (unit === "month") r = span(utc(y, mo - n, 1), utc(y, mo - n + 1, 0), phrase);
      else r = span(utc(y - n, 0, 1), utc(y - n, 11, 31), phrase);
    }
    if (r && !seen.has(`${r.from}/${r.to}`)) {
      seen.add(`${r.from}/${r.to}`);
      out.push(r);
    }
  }
  return out;
}

/**
 * Explicit dates a query names (`8 May 2023`, `May 8, 2023`, `2023-05-08`, `May 2023`), as day spans;
 * relative phrases resolve against `todayMs` when given. A bare year is not read (too ambiguous in text).
 */
export function queryDateSpans(query: string, todayMs?: number): DaySpan[] {
  const s = query.toLowerCase();
  const out: DaySpan[] = [];
  for (const m of s.matchAll(/\b(\d{4})-(\d{2})-(\d{2})\b/g)) {
    const ms = validDay(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    if (ms !== undefined) out.push({ from: iso(ms), to: iso(ms) });
  }
  const taken: [number, number][] = [];
  for (const m of s.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE}\\.?,?\\s+(\\d{4})\\b`, "g"))) {
    const ms = validDay(Number(m[3]), monthIndex(m[2]), Number(m[1]));
    if (ms !== undefined) out.push({ from: iso(ms), to: iso(ms) }), taken.push([m.index!, m.index! + m[0].length]);
  }
  for (const m of s.matchAll(new RegExp(`\\b${MONTH_RE}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, "g"))) {
    const ms = validDay(Number(m[3]), monthIndex(m[1]), Number(m[2]));
    if (ms !== undefined) out.push({ from: iso(ms), to: iso(ms) }), taken.push([m.index!, m.index! + m[0].length]);
  }
  for (const m of s.matchAll(new RegExp(`\\b${MONTH_RE}\\.?,?\\s+(?:of\\s+)?(\\d{4})\\b`, "g"))) {
    if (taken.some(([a, b]) => m.index! >= a && m.index! < b)) continue;
    const mi = monthIndex(m[1]), y = Number(m[2]);
    out.push({ from: iso(utc(y, mi, 1)), to: iso(utc(y, mi + 1, 0)) });
  }
  if (todayMs !== undefined) for (const r of resolveRelativeDates(query, todayMs)) out.push({ from: r.from, to: r.to });
  return out;
}

/** True when some span of `a` overlaps some span of `b`. */
export function spansOverlap(a: readonly DaySpan[], b: readonly DaySpan[]): boolean {
  for (const x of a) for (const y of b) if (x.from <= y.to && y.from <= x.to) return true;
  return false;
}
