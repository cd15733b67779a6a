// Types the money screens share. Client-safe.
import type { ColumnMapping, RevenueFormat } from "./revenue-columns";
import type { RowProblem } from "./revenue-csv";

export type LedgerStatus = "estimated" | "finalized" | "paid";
export type SourceKind = "music" | "campaign" | "clip" | "referral" | "adjustment";

export type ImportPreview = {
  month: string;
  fileName: string;
  format: RevenueFormat;
  /** Data rows read (blank lines and a spreadsheet's totals row left out). */
  rowCount: number;
  /** Rows that matched a person (0 when there are problems: nothing was staged). */
  matched: number;
  /** The first problems, by line; `problemCount` says how many there were. */
  problems: RowProblem[];
  problemCount: number;
  /** Rows left out on purpose (a totals row), with why. */
  skipped: RowProblem[];
  /** The staged import to commit (null when there are problems). */
  importId: string | null;
  /** The import it replaces ("" when the month has none live). */
  replaces: string;
  entryCount: number;
  /** The exact sum of the file's readable rows as written ("301.918125"), and it rounded half up to the cent. */
  fileTotal: string;
  fileTotalCents: number;
  /** What rounding the month once left over: exact − rounded (under half a cent). */
  remainder: string;
  netCents: number;
  amountCents: number;
  shareBp: number;
  /** People matched whose agreement had ended before the month: nothing credited to them (decision 0128). */
  notCredited: number;
  /** The first lines by net revenue (PREVIEW_LINES_SHOWN); `lineCount` says how many there are in all. */
  lines: PreviewLine[];
  lineCount: number;
  /** How a mapped file's columns were read (null for our format and the YouTube report). */
  mapping: { uploadId: string; columns: string[]; mapping: ColumnMapping; remembered: boolean; person: string } | null;
};

/**
 * One line of a staged preview: who is credited, from where, and how much (issue 42 §1), so the
 * admin can check each person before committing. Only what the preview shows.
 */
export type PreviewLine = {
  /** The person credited: their display name (null when they have none) and e-mail. */
  name: string | null;
  email: string;
  kind: "music" | "clip" | "referral";
  /** music: the channel id from the file ("" for a creator-ID row); clip: the clip's URL; referral: "". */
  source: string;
  /** A music line's channel title as linked on the app (null when there is no channel). */
  channelTitle: string | null;
  netCents: number;
  amountCents: number;
  /** False for a matched person whose agreement ended before the month: nothing is credited (decision 0128). */
  credited: boolean;
};

/** The column-mapping step of a file the app does not recognise (decision 0221). */
export type MappingStep = {
  uploadId: string;
  month: string;
  fileName: string;
  columns: string[];
  /** The first rows, one cell per column. */
  sample: string[][];
  /** The remembered mapping for this header, else a guess from the column names. */
  mapping: ColumnMapping;
  remembered: boolean;
  /** A shape the header also fits (when the admin asked to map a known file by hand). */
  detected: RevenueFormat | null;
};

export type StatementLine = {
  id: string;
  month: string;
  sourceKind: SourceKind;
  source: string;
  netCents: number;
  shareBp: number;
  amountCents: number;
  status: LedgerStatus;
  /** The line's videos (an imported line whose rows named them): net and amount each, adding up to the line. */
  videos: { videoId: string; netCents: number; amountCents: number }[];
};

export type PayoutRow = {
  id: string;
  batch: string;
  amountCents: number;
  status: "pending" | "processing" | "paid" | "failed";
  method: "stripe" | "manual";
  failureReason: string | null;
  reference: string | null;
  paidAt: string | null;
  createdAt: string;
  /** YYYY-MM-DD: the run's payout date on the calendar. */
  payoutDate: string;
};

export type AgreementView = {
  /** ended: a notice that has taken effect. */
  status: "active" | "notice" | "terminated" | "ended";
  /** The share for revenue of this month (a revised share in force, else the standard share). */
  shareBp: number;
  standardBp: number;
  /** First day of the run of 12-month terms (the first channel link, or an accepted revised share); null before any channel. */
  termStart: string | null;
  currentTermStart: string | null;
  renewsOn: string | null;
  noticeGivenAt: string | null;
  /** The last day the account earns (notice or termination). */
  endsOn: string | null;
  /** When a notice given today would take effect. */
  noticeWouldEndOn: string;
  terminationReason: string | null;
  holdReason: string | null;
  offer: { id: string; shareBp: number; note: string | null; createdAt: string; effectiveMonth: string } | null;
  /** An accepted revised share that applies from a later month. */
  upcoming: { shareBp: number; effectiveMonth: string } | null;
};

export type AgreementAdminRow = {
  userId: string;
  name: string;
  email: string;
  creatorId: string;
  status: "active" | "notice" | "terminated";
  endsOn: string | null;
  terminationReason: string | null;
  holdReason: string | null;
  offer: { id: string; shareBp: number; createdAt: string } | null;
};

/** How the person is paid, as /payments shows it (docs/decisions/0224). */
export type PayoutAccountView = {
  /** Stripe is configured on this deployment. */
  available: boolean;
  /** The local stand-in answers instead of Stripe (development). */
  standIn: boolean;
  /** The countries a payout account can be opened in, from the platform's country (docs/decisions/0306). */
  countries: { code: string; name: string }[];
  method: "stripe" | "manual";
  /** none: no Stripe account yet. */
  status: "none" | "needs_information" | "enabled" | "restricted";
  statusReason: string | null;
  manualReason: string | null;
};

/** A clip's earnings as one side sees them on /clipping (docs/decisions/0255). */
export type ClipEarning = {
  /** The latest month imported for the clip: both sides' parts of the pool (the creator's share of the clip's revenue). */
  latest: {
    month: string;
    label: string;
    status: LedgerStatus;
    poolCents: number;
    clipperCents: number;
    creatorCents: number;
    /** The creator's share of the clip's net revenue: the pool. */
    creatorShareBp: number;
    /** The clipper's share of the pool by runs of days of that month. */
    segments: { fromDay: number; toDay: number; bps: number }[];
  } | null;
  /** The viewer's part over every imported month. */
  yourTotalCents: number;
  /** That part per 1,000 of the clip's views now (cents, with a fraction); null without views. */
  yourCentsPerThousandViews: number | null;
  /** What applies to this month's revenue: the creator's share and the clipper's share of it today. */
  creatorShareBpNow: number;
  clipperBpsNow: number;
};

export type ClipEarnings = { byClip: Record<string, ClipEarning>; currentMonth: string; currentMonthLabel: string };

/** A run's progress for the admin, counted from its payouts (no separate counter to drift). */
export type PayoutRunProgress = {
  batch: string;
  gathered: number;
  totalCents: number;
  /** Stripe payouts not sent yet (on the queue, or held for the platform's balance). */
  waiting: number;
  held: number;
  /** Sent to Stripe, waiting for its confirmation. */
  sent: number;
  paid: number;
  /** Refused or reversed by Stripe: the amount is back in the person's balance (decision 0331). */
  failed: number;
  /** Outside Stripe, to be marked paid by hand. */
  manual: number;
};
