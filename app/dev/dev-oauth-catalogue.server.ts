import { z } from "zod";
import { invalid } from "~/lib/errors";
import { DEMO_CHANNEL } from "./demo-channel";

// The stand-in identity provider's people, channels and videos (app/dev/dev-oauth.server.ts), and
// the account its picker chose.

export type StandInAccount = { sub: string; email: string; name: string; email_verified: boolean };

export const STAND_IN_ACCOUNTS: StandInAccount[] = [
  { sub: "google-sam-0001", email: "sam.google@example.com", name: "Sam Google", email_verified: true },
  { sub: "google-casey-0002", email: "creator@shortbeat.test", name: "Casey Creator", email_verified: true },
  { sub: "google-una-0003", email: "unverified.google@example.com", name: "Una Unverified", email_verified: false },
];

export type StandInChannel = {
  id: string;
  title: string;
  customUrl: string;
  description: string;
  subscriberCount: number;
  viewCount: number;
  videoCount: number;
};

/** Fake YouTube channels, one per stand-in subject (the channels?mine=true answer). */
export const STAND_IN_CHANNELS: Record<string, StandInChannel> = {
  "google-sam-0001": {
    id: "UCstandinSamShorts00001",
    title: "Sam's Shorts",
    customUrl: "@samshorts",
    description: "Quick science facts in under a minute.",
    subscriberCount: 12800,
    viewCount: 2450000,
    videoCount: 148,
  },
  // The seed's demo channel, so creator@shortbeat.test can reconnect it (numbers: see below).
  "google-casey-0002": {
    id: DEMO_CHANNEL.channelId,
    title: DEMO_CHANNEL.title,
    customUrl: DEMO_CHANNEL.handle,
    description: DEMO_CHANNEL.description,
    subscriberCount: 0,
    viewCount: 0,
    videoCount: 0,
  },
  "google-una-0003": {
    id: "UCstandinUnaTravels0003",
    title: "Una Travels",
    customUrl: "@unatravels",
    description: "Travel Shorts.",
    subscriberCount: 900,
    viewCount: 51000,
    videoCount: 23,
  },
};

/**
 * Fake YouTube videos and the channel each is on (the videos?id= answer, issue 15's campaign check).
 * Tests and demos add more with `registerStandInVideo` (KV devoauth:video:<id>).
 */
export const STAND_IN_VIDEOS: Record<string, string> = {
  caseyShort1: DEMO_CHANNEL.channelId,
  caseyShort2: DEMO_CHANNEL.channelId,
  caseyShort3: DEMO_CHANNEL.channelId,
  samShorts01: "UCstandinSamShorts00001",
};

/**
 * The picker's forms: an account button, "Use another account" (name, e-mail, and whether Google
 * reports that e-mail as unverified), or Cancel.
 */
export const standInChoiceSchema = z.object({
  intent: z.string().optional(),
  account: z.string().optional(),
  name: z.string().optional(),
  email: z.string().optional(),
  unverified: z.string().optional(),
});

/** The account the picker's POST chose: a listed one, or the one typed in (a valid e-mail). */
export function accountFromChoice(choice: z.output<typeof standInChoiceSchema>): StandInAccount {
  const known = STAND_IN_ACCOUNTS.find((a) => a.sub === choice.account);
  if (known) return known;
  const email = (choice.email ?? "").trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) {
    throw invalid("Enter a valid e-mail address.", { fieldErrors: { email: "Enter a valid e-mail address." } });
  }
  const [localPart = email] = email.split("@");
  const name = (choice.name ?? "").trim() || localPart;
  return { sub: `google-custom-${email}`, email, name, email_verified: choice.unverified !== "on" };
}

export function standInChannelFor(account: StandInAccount): StandInChannel {
  const slug = (account.email.split("@")[0] ?? "").replace(/[^a-z0-9]/gi, "").slice(0, 20) || "channel";
  return {
    id: `UCstandin${slug}`.slice(0, 24),
    title: `${account.name}'s Channel`,
    customUrl: `@${slug}`,
    description: "A stand-in channel.",
    subscriberCount: 1000,
    viewCount: 100000,
    videoCount: 10,
  };
}
