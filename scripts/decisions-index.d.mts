export interface DecisionRecord {
  number: string;
  file: string;
  title: string;
  /** The Status line's short form, or null when the record has none. */
  status: string | null;
  /** YYYY-MM-DD, or "" when the record names none. */
  date: string;
}
export declare const DECISIONS_DIR: string;
export declare const INDEX_PATH: string;
export declare function readRecord(file: string, text: string): DecisionRecord;
export declare function shortStatus(text: string): string;
export declare function readRecords(dir?: string): DecisionRecord[];
export declare function buildIndex(records: DecisionRecord[]): string;
