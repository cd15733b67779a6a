// The demo music catalogue's tracks (app/dev/music-seed.ts writes them): five classics, the
// catalogue lines across every genre and mood with notes composed from a deterministic random
// source, and a partner's two submissions. Plain data and note patterns, no I/O.
// Loaded by Node (scripts/setup-local.mjs): relative imports with their extension only.
import { expectAt } from "../lib/arrays.ts";
import type { GENRES, MOODS } from "../modules/music/library.ts";
import { pattern, type Note } from "./wav.ts";

export const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`;

type Status = "published" | "in_review" | "rejected";

export type SeedTrack = {
  id: string;
  title: string;
  artist: string;
  genre: (typeof GENRES)[number];
  mood: (typeof MOODS)[number];
  bpm: number;
  tags: string;
  status: Status;
  /** Submitted by the demo music partner (else a house track). */
  byPartner: boolean;
  reviewNote?: string;
  /** Days before SEED_EPOCH it was published (or submitted). */
  age: number;
  melody: Note[];
  bass: Note[];
  /** The notes are one cycle, played this many times (see synthesize). */
  repeat?: number;
  sampleRate?: number;
};

const PARTNER_ARTIST = "Morgan & The Loops";

// The five tracks every earlier seed had (same ids, same notes, so their audio stays the same).
const CLASSICS: SeedTrack[] = [
  {
    id: uuid(101),
    title: "Sunrise Loop",
    artist: PARTNER_ARTIST,
    genre: "Pop",
    mood: "Happy",
    bpm: 120,
    tags: "morning bright loop upbeat",
    status: "published",
    byPartner: true,
    age: 90,
    melody: pattern([72, 76, 79, 76, 74, 77, 81, 77], 0.5, 4),
    bass: pattern([48, 48, 53, 53, 55, 55, 48, 48], 2, 1),
  },
  {
    id: uuid(102),
    title: "Night Drive",
    artist: PARTNER_ARTIST,
    genre: "Synthwave",
    mood: "Chill",
    bpm: 96,
    tags: "night driving retro city",
    status: "published",
    byPartner: true,
    age: 88,
    melody: pattern([69, null, 72, 76, 74, null, 72, 69], 0.5, 3),
    bass: pattern([45, 45, 41, 43], 3, 1),
  },
  {
    id: uuid(103),
    title: "Hype Check",
    artist: "Shortbeat Originals",
    genre: "Hip-Hop",
    mood: "Energetic",
    bpm: 140,
    tags: "hype trap beat bold",
    status: "published",
    byPartner: true,
    age: 86,
    melody: pattern([67, 67, 70, 72, null, 72, 70, 67], 0.5, 5),
    bass: pattern([43, null, 43, 46], 1, 5),
  },
  {
    id: uuid(104),
    title: "Paper Planes",
    artist: "Shortbeat Originals",
    genre: "Acoustic",
    mood: "Uplifting",
    bpm: 108,
    tags: "travel guitar hopeful",
    status: "published",
    byPartner: true,
    age: 84,
    melody: pattern([64, 67, 71, 72, 71, 67], 0.5, 4),
    bass: pattern([40, 43, 45, 43], 3, 1),
  },
  {
    id: uuid(105),
    title: "Glitch Garden",
    artist: "Shortbeat Originals",
    genre: "Electronic",
    mood: "Quirky",
    bpm: 128,
    tags: "glitch playful tech",
    status: "published",
    byPartner: true,
    age: 82,
    melody: pattern([84, 79, 76, 79, 83, 79, 74, 79], 0.25, 8),
    bass: pattern([36, 36, 43, 41], 2, 2),
  },
];

// title, artist, genre, mood, bpm, tags
type Line = [string, string, SeedTrack["genre"], SeedTrack["mood"], number, string];
const CATALOGUE: Line[] = [
  ["Golden Hour", "Lumen Drift", "Lo-fi", "Chill", 82, "sunset study relax warm"],
  ["Midnight Ramen", "Kaito Vale", "Lo-fi", "Calm", 76, "night cooking cozy study"],
  ["Street Lights", "Static Bloom", "Hip-Hop", "Dark", 92, "urban night gritty beat"],
  ["Level Up", "Shortbeat Originals", "Electronic", "Energetic", 150, "gaming victory arcade hype"],
  ["Cloud Nine", "Juniper Sound", "Pop", "Happy", 118, "bright summer fun dance"],
  ["First Light", "Harbor Lights", "Ambient", "Calm", 64, "morning meditation soft nature"],
  ["Thunder Road Trip", "Cedar & Stone", "Rock", "Energetic", 132, "travel guitar drive adventure"],
  ["Velvet Room", "Maya Okafor", "Jazz", "Romantic", 88, "lounge date piano smooth"],
  ["Epic Reveal", "Shortbeat Originals", "Cinematic", "Dramatic", 100, "trailer reveal tension epic"],
  ["Pixel Parade", PARTNER_ARTIST, "Electronic", "Quirky", 124, "retro 8bit playful comedy"],
  ["Rainy Window", "Lumen Drift", "Lo-fi", "Sad", 70, "rain melancholy study piano"],
  ["Funk Fiesta", "Static Bloom", "Funk", "Happy", 112, "groove bass party dance"],
  ["Neon Skyline", PARTNER_ARTIST, "Synthwave", "Energetic", 110, "retro 80s city drive"],
  ["Slow Bloom", "Juniper Sound", "Acoustic", "Calm", 72, "spring garden gentle guitar"],
  ["Moonlit Waltz", "Maya Okafor", "Classical", "Romantic", 90, "waltz strings elegant wedding"],
  ["Shadow Play", "Kaito Vale", "Cinematic", "Dark", 84, "mystery suspense horror tension"],
  ["Bounce House", "Shortbeat Originals", "Hip-Hop", "Quirky", 98, "funny bouncy kids comedy"],
  ["Summit Push", "Cedar & Stone", "Rock", "Uplifting", 140, "sports workout motivation climb"],
  ["Ocean Drift", "Harbor Lights", "Ambient", "Chill", 68, "sea waves calm travel"],
  ["Cafe Morning", "Maya Okafor", "Jazz", "Happy", 104, "coffee breakfast vlog cozy"],
  ["Heartline", "Juniper Sound", "Pop", "Romantic", 96, "love couple sweet vlog"],
  ["Turbo Sprint", PARTNER_ARTIST, "Electronic", "Energetic", 170, "speed race edm workout"],
  ["Grey Afternoon", "Lumen Drift", "Acoustic", "Sad", 66, "lonely guitar reflective autumn"],
  ["Brass Parade", "Static Bloom", "Funk", "Energetic", 120, "horns celebration street march"],
  ["Starfield", "Harbor Lights", "Cinematic", "Uplifting", 78, "space wonder inspiring orchestral"],
  ["Toy Box", "Shortbeat Originals", "Classical", "Quirky", 132, "pizzicato kids playful cartoon"],
  ["Chrome Hearts", PARTNER_ARTIST, "Synthwave", "Romantic", 100, "retro love neon 80s"],
  ["Deep Focus", "Kaito Vale", "Ambient", "Calm", 60, "study focus minimal work"],
  ["Boom Bap Diaries", "Static Bloom", "Hip-Hop", "Chill", 88, "oldschool vinyl daily vlog"],
  ["Sunny Side Up", "Juniper Sound", "Acoustic", "Happy", 116, "ukulele breakfast cheerful cooking"],
  ["Afterglow", "Lumen Drift", "Synthwave", "Chill", 94, "sunset retro dreamy drive"],
  ["Wild Card", "Cedar & Stone", "Rock", "Quirky", 150, "garage surprise fun prank"],
  ["Candlelight", "Maya Okafor", "Classical", "Sad", 62, "piano memory tribute emotional"],
  ["Victory Lap", "Shortbeat Originals", "Pop", "Uplifting", 128, "win celebration sports anthem"],
  ["Low Tide", "Harbor Lights", "Lo-fi", "Dark", 74, "night moody rain ocean"],
  ["Groove Machine", "Static Bloom", "Funk", "Quirky", 108, "robot dance funky bass"],
  ["Hold the Line", "Kaito Vale", "Cinematic", "Energetic", 146, "action chase battle intense"],
  ["Sunday Stroll", "Juniper Sound", "Jazz", "Chill", 92, "walk park weekend easy"],
  ["Aurora", "Harbor Lights", "Electronic", "Uplifting", 126, "festival euphoric sunrise dance"],
  ["Night Market", "Kaito Vale", "Hip-Hop", "Energetic", 102, "street food city busy"],
];

const SUBMISSIONS: Line[] = [
  ["Paper Moon", PARTNER_ARTIST, "Pop", "Romantic", 100, "dreamy night love"],
  ["Loud Room Demo", PARTNER_ARTIST, "Rock", "Energetic", 138, "demo garage loud"],
];
export const REJECTION_NOTE = "The chorus clips (the mix peaks above 0 dBFS). Please send a mastered version.";

const SCALES = {
  bright: [0, 2, 4, 7, 9, 12, 14, 16],
  minor: [0, 3, 5, 7, 10, 12, 15, 17],
  soft: [0, 4, 7, 11, 12, 14, 16, 19],
};
const MOOD_SCALE: Record<SeedTrack["mood"], keyof typeof SCALES> = {
  Calm: "soft",
  Chill: "soft",
  Romantic: "soft",
  Dark: "minor",
  Dramatic: "minor",
  Sad: "minor",
  Energetic: "bright",
  Happy: "bright",
  Quirky: "bright",
  Uplifting: "bright",
};

/** A small deterministic random source, so every run writes the same notes. */
function prng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

/**
 * The catalogue lines that last longer than the 12–30 s loops, so the Length filter ("from 0:30",
 * "1:00–2:00") finds something (issue 42): four tracks, 0:48 to 2:20, seconds by title. A longer
 * track costs one cycle of synthesis like the others (the cycle is repeated), but its WAV (32 KB a
 * second) and its MP3 preview's encoding grow with its length, hence only four.
 */
export const LONG_TRACKS: Record<string, number> = { "Victory Lap": 48, "Ocean Drift": 65, "Deep Focus": 110, "Epic Reveal": 140 };

/**
 * Notes for a catalogue line: a one-bar motif in the mood's scale over a four-chord bass, as one
 * cycle repeated to last 12–30 s, or `seconds` (16 kHz mono: small files, quick to make).
 */
function composed(
  n: number,
  mood: SeedTrack["mood"],
  bpm: number,
  seconds = 12 + ((n * 7) % 19),
): Pick<SeedTrack, "melody" | "bass" | "repeat" | "sampleRate"> {
  const rand = prng(n * 7919);
  const scale = SCALES[MOOD_SCALE[mood]];
  const root = 57 + ((n * 5) % 12);
  const step = bpm >= 110 ? 0.5 : 1;
  const motif = Array.from({ length: 8 }, () => (rand() < 0.15 ? null : root + expectAt(scale, Math.floor(rand() * scale.length), "scale notes")));
  const cycleBeats = 8 * step;
  const progression = MOOD_SCALE[mood] === "minor" ? [0, -4, 3, -2] : [0, -3, 5, 7];
  return {
    melody: pattern(motif, step, 1),
    bass: pattern(
      progression.map((p) => root - 24 + p),
      cycleBeats / 4,
      1,
    ),
    repeat: Math.max(2, Math.round((seconds * bpm) / 60 / cycleBeats)),
    sampleRate: 16_000,
  };
}

export const MUSIC_SEED_TRACKS: SeedTrack[] = [
  ...CLASSICS,
  ...CATALOGUE.map(
    ([title, artist, genre, mood, bpm, tags], i): SeedTrack => ({
      id: uuid(1001 + i),
      title,
      artist,
      genre,
      mood,
      bpm,
      tags,
      status: "published",
      byPartner: artist === PARTNER_ARTIST,
      age: 80 - i * 2,
      ...composed(i + 1, mood, bpm, LONG_TRACKS[title]),
    }),
  ),
  ...SUBMISSIONS.map(
    ([title, artist, genre, mood, bpm, tags], i): SeedTrack => ({
      id: uuid(1101 + i),
      title,
      artist,
      genre,
      mood,
      bpm,
      tags,
      status: i === 0 ? "in_review" : "rejected",
      byPartner: true,
      reviewNote: i === 0 ? undefined : REJECTION_NOTE,
      age: i === 0 ? 1 : 5,
      ...composed(60 + i, mood, bpm),
    }),
  ),
];
