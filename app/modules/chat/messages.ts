// Chat limits, labels and messages without zod (client-safe; the page's first load reads them).

export const CHAT_MESSAGE_MAX = 1000;
export const CHAT_HISTORY_PAGE = 50;
/** A user edits their own message within 15 minutes of sending it. */
export const CHAT_EDIT_WINDOW_MS = 15 * 60 * 1000;
/**
 * 5 messages per 10 s per person across all rooms (a sliding window in the RATE_LIMITER object,
 * decision 0204), and per room in the room's own object (decision 0160).
 */
export const CHAT_RATE_LIMIT = 5;
export const CHAT_RATE_WINDOW_MS = 10_000;
/** Mentions per message (each rings one bell). */
export const CHAT_MENTIONS_MAX = 10;
export const ROOM_NAME_MAX = 60;
export const ROOM_DESCRIPTION_MAX = 300;
export const MUTE_REASON_MAX = 300;

/** Mute periods the admin picks from, in minutes. */
export const MUTE_PERIODS = [
  { value: "15", label: "15 minutes" },
  { value: "60", label: "1 hour" },
  { value: "1440", label: "1 day" },
  { value: "10080", label: "7 days" },
  { value: "43200", label: "30 days" },
] as const;

/** Who posts in a room (the admin's room form). */
export const ROOM_KIND_OPTIONS = [
  { value: "general", label: "Everyone posts" },
  { value: "announcements", label: "Announcements (admins post)" },
] as const;

export const CHAT_TEXT = {
  // The spec's server rate-limit message ('Rate limit exceeded' / 'Please wait before trying again.'), and why.
  tooFast: "Please wait before trying again. You're sending messages too fast. Your text is still in the box.",
  tooFastTitle: "Rate limit exceeded",
  archived: "This room is archived. It is read-only.",
  announcementsOnly: "Only admins post in announcements.",
  editWindow: "Messages can be edited for 15 minutes after sending.",
  notYours: "You can only change your own messages.",
  messageGone: "This message no longer exists.",
  emptyMessage: "Write a message first.",
  alreadyMuted: "This user is already muted there. Unmute them first to change the mute.",
  cannotMuteAdmin: "Admins cannot be muted. Remove the admin role first if this person should not post.",
  notMuted: "This user is not muted.",
  unsent: "Not sent",
} as const;

/** What a muted user reads when a message is refused: in every room, or in the named one (decision 0246). */
export function mutedText(untilLabel: string, reason: string, roomName: string | null = null): string {
  return `You are muted${roomName === null ? "" : ` in #${roomName}`} until ${untilLabel}. Reason: ${reason}`;
}

/** `body` message length, as the spec words length errors. */
export const messageTooLong = `Message must be ${CHAT_MESSAGE_MAX} characters or less.`;
