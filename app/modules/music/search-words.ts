// What a person types, turned into what the library's words are: spelling variants (British and
// American, compounds written as one word or two) and typo correction against the library's own
// vocabulary. Pure functions (no database): search.server.ts builds the FTS5 query from them and
// scripts/bench-music.mjs times the same path. docs/decisions/0240-search-variants-and-typos.md;
// words that describe a mood: docs/decisions/0316-mood-families-in-search.md.
import type { Mood } from "./library";

/** At most this many words of a search are used (each one narrows the result). */
export const SEARCH_TERMS_MAX = 8;
const TERM_MAX = 40;

/**
 * The words of what a person typed, as the index's unicode61 tokenizer splits them (letters,
 * digits and marks), lower-cased, each at most 40 characters, at most 8, without repeats.
 */
export function typedWords(text: string): string[] {
  const words =
    text
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
  return [...new Set(words.map((w) => w.slice(0, TERM_MAX)))].slice(0, SEARCH_TERMS_MAX);
}

/** A word as the index stores it (remove_diacritics 2): "café" → "cafe". */
export const foldWord = (word: string) => word.normalize("NFD").replace(/\p{M}/gu, "");

/**
 * Spellings that mean the same: each group's members are searched together (`harbour` also finds
 * `harbor` and the other way round). Multi-word members are matched as adjacent words ("hip hop"
 * is one member: typed as two words it still finds "hiphop", and "hip-hop" is the words hip hop).
 */
export const VARIANT_GROUPS: readonly (readonly string[])[] = [
  ["lofi", "lo fi"],
  ["hiphop", "hip hop"],
  ["chillhop", "chill hop"],
  ["synthwave", "synth wave"],
  ["edm", "electronic dance"],
  ["rnb", "r b", "r and b"],
  ["8bit", "8 bit", "chiptune"],
  ["uptempo", "up tempo"],
  ["downtempo", "down tempo"],
  ["midtempo", "mid tempo"],
  ["grey", "gray"],
  ["cosy", "cozy"],
  ["centre", "center"],
  ["theatre", "theater"],
  ["metre", "meter"],
  ["sombre", "somber"],
  ["fibre", "fiber"],
  ["mum", "mom"],
  ["programme", "program"],
  ["catalogue", "catalog"],
  ["dialogue", "dialog"],
  ["travelling", "traveling"],
  ["travelled", "traveled"],
  ["jewellery", "jewelry"],
  ["aeroplane", "airplane"],
  ["pyjamas", "pajamas"],
  ["doughnut", "donut"],
  ["plough", "plow"],
  ["tyre", "tire"],
  ["whisky", "whiskey"],
  ["realise", "realize"],
  ["organise", "organize"],
  ["energise", "energize"],
  ["mesmerising", "mesmerizing"],
  ["hypnotising", "hypnotizing"],
];

/**
 * Words people use for a mood the library offers (its MOODS), as Epidemic Sound's search does: a
 * word here also finds the tracks of every mood it names ("upbeat" finds Energetic, Happy and
 * Uplifting tracks). The moods' own names are not here: "happy" means the Happy mood, as the Mood
 * filter does, not Energetic too. Comma-separated; a member of two words is matched as adjacent
 * words, as in VARIANT_GROUPS.
 */
export const MOOD_WORDS: Readonly<Record<Mood, string>> = {
  Calm: "relaxed, relaxing, relax, peaceful, soothing, serene, tranquil, gentle, mellow, meditative, quiet, soft",
  Chill: "chilled, chillout, chill out, relaxed, relaxing, relax, mellow, laid back, laidback, easy going, easygoing",
  Dark: "moody, tense, ominous, sinister, gloomy, creepy, spooky, eerie, menacing, suspense, suspenseful, mysterious, haunting, brooding",
  Dramatic: "epic, intense, tense, tension, suspense, suspenseful, powerful, heroic, emotional, climactic, majestic",
  Energetic: "upbeat, hype, pumped, pumping, driving, intense, powerful, exciting, lively, action, energy, energising, energizing, dynamic",
  Happy: "upbeat, cheerful, joyful, joyous, sunny, bright, fun, feel good, feelgood, positive, lively, carefree, optimistic",
  Quirky: "playful, funny, silly, whimsical, comedy, comedic, goofy, bouncy, weird, cartoon, cartoony, fun, mischievous",
  Romantic: "love, loving, romance, tender, sensual, intimate, sweet, passionate, dreamy",
  Sad: "melancholy, melancholic, sombre, somber, sorrowful, emotional, lonely, heartbreak, heartbroken, depressing, mournful, wistful, reflective",
  Uplifting:
    "upbeat, hopeful, inspiring, inspirational, motivational, motivating, positive, euphoric, triumphant, anthemic, feel good, feelgood, optimistic, empowering, heartwarming",
};

const GROUP_OF = new Map<string, readonly string[]>();
for (const group of VARIANT_GROUPS) for (const member of group) GROUP_OF.set(member, group);
/** Each mood word and the moods it names, lower-case ("upbeat" → energetic, happy, uplifting). */
const MOODS_OF = new Map<string, string[]>();
for (const [mood, words] of Object.entries(MOOD_WORDS)) {
  for (const word of words.split(", ")) MOODS_OF.set(word, [...(MOODS_OF.get(word) ?? []), mood.toLowerCase()]);
}
/** The longest member, in words (how far ahead a multi-word member may reach). */
const LONGEST = Math.max(...[...VARIANT_GROUPS.flat(), ...MOODS_OF.keys()].map((m) => m.split(" ").length));

/** The moods a word or adjacent words name (any of its spellings), lower-case; empty for most words. */
export function moodsNamedBy(spellings: readonly string[]): string[] {
  return [...new Set(spellings.flatMap((s) => MOODS_OF.get(s) ?? []))];
}

/**
 * The other spellings of one word or words: the listed groups, and the British -our / American
 * -or endings (harbour, colour, flavour, neighbour…). Always includes `words` itself, first.
 */
export function variantsOf(words: string): string[] {
  const out = [words, ...(GROUP_OF.get(words) ?? [])];
  if (!words.includes(" ") && words.length >= 5) {
    if (words.endsWith("our")) out.push(`${words.slice(0, -3)}or`);
    else if (/[^aeiou]or$/.test(words) && !words.endsWith("door") && !words.endsWith("floor")) out.push(`${words.slice(0, -2)}our`);
  }
  return [...new Set(out)];
}

/**
 * What one or more adjacent typed words search: their spellings, matched anywhere (["hip hop",
 * "hiphop"] for `hip hop`, ["harbour", "harbor"] for `harbour`), and the moods they name, matched
 * as a track's mood (["energetic", "happy", "uplifting"] for `upbeat`; MOOD_WORDS).
 */
export type SearchGroup = { spellings: string[]; moods: string[] };

/** The typed words grouped into what is searched (each group is one AND-ed part of the search). */
export function searchGroups(words: readonly string[]): SearchGroup[] {
  const groups: SearchGroup[] = [];
  for (let i = 0; i < words.length; ) {
    let taken = 1;
    for (let n = Math.min(LONGEST, words.length - i); n > 1; n--) {
      const phrase = words.slice(i, i + n).join(" ");
      if (GROUP_OF.has(phrase) || MOODS_OF.has(phrase)) {
        taken = n;
        break;
      }
    }
    const spellings = variantsOf(words.slice(i, i + taken).join(" "));
    groups.push({ spellings, moods: moodsNamedBy(spellings) });
    i += taken;
  }
  return groups;
}

/**
 * Optimal string alignment distance (Levenshtein plus the swap of two neighbours, so "nigth" is
 * one edit from "night"), or `max + 1` as soon as it must exceed `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  // Every index read stays within 0..b.length of a row already filled; a cell outside would be unreachable.
  const cell = (r: number[], k: number) => r[k] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(cell(prev, j) + 1, cell(row, j - 1) + 1, cell(prev, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, cell(prev2, j - 2) + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = row;
  }
  return cell(prev, b.length);
}

/** Edits a typed word may be from a library word: none under 4 letters, one up to 5, two from 6. */
export const typoAllowance = (word: string) => (word.length < 4 ? 0 : word.length <= 5 ? 1 : 2);

/** Whether any typed word could be corrected (else the vocabulary need not be read). */
export const anyCorrectable = (words: readonly string[]) => words.some((w) => typoAllowance(w) > 0 && !/^\d+$/.test(w));

/** A library word and how many tracks hold it (from the index's vocabulary). */
export type VocabularyWord = { term: string; docs: number };

/**
 * The typed words with each unknown one replaced by the closest library word: a word is known when
 * some library word starts with it (the search matches prefixes). The closest is the fewest edits
 * within typoAllowance, then the word more tracks hold, then A–Z. Null when nothing was changed.
 */
export function correctWords(words: readonly string[], vocabulary: readonly VocabularyWord[]): string[] | null {
  let changed = false;
  const out = words.map((typed) => {
    const word = foldWord(typed);
    const allowance = typoAllowance(word);
    if (allowance === 0 || /^\d+$/.test(word)) return typed;
    if (vocabulary.some((v) => v.term.startsWith(word))) return typed;
    let best: { term: string; distance: number; docs: number } | null = null;
    for (const v of vocabulary) {
      const distance = editDistance(word, v.term, allowance);
      if (distance > allowance) continue;
      if (!best || distance < best.distance || (distance === best.distance && (v.docs > best.docs || (v.docs === best.docs && v.term < best.term)))) {
        best = { term: v.term, distance, docs: v.docs };
      }
    }
    if (!best) return typed;
    changed = true;
    return best.term;
  });
  return changed ? out : null;
}
