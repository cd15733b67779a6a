// Types the money screens share. Client-safe.
import type { RowProblem } from "./revenue-csv";

export type LedgerStatus = "estimated" | "finalized" | "paid";
export type SourceKind = "music" | "campaign" | "clip" | "referral" | "adjustment";

export type ImportPreview = {
  month: string;
  fileName: string;
  rowCount: number;
  /** Rows that matched a person (0 when there are problems: nothing was staged). */
  matched: number;
  problems: RowProblem[];
  /** The staged import to commit (null when there are problems). */
  importId: string | null;
  /** The import it replaces ("" when the month has none live). */
  replaces: string;
  entryCount: number;
  netCents: number;
  amountCents: number;
  shareBp: number;
  people: { name: string; netCents: number; amountCents: number }[];
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
};

export type PayoutRow = {
  id: string;
  batch: string;
  amountCents: number;
  status: "pending" | "paid";
  reference: string | null;
  paidAt: string | null;
  createdAt: string;
};
