import { getTableColumns, type Table } from "drizzle-orm";

/**
 * Some of a table's columns under their own names, for a select: `columnsOf(payouts, "id", "status")`
 * is `{ id: payouts.id, status: payouts.status }`, in the order named. A column read under another
 * name (`room: chatRooms.name`) is written out beside it.
 */
export function columnsOf<T extends Table, K extends keyof T["_"]["columns"] & string>(table: T, ...names: K[]): Pick<T["_"]["columns"], K> {
  const all = getTableColumns(table);
  const picked = {} as Pick<T["_"]["columns"], K>;
  for (const name of names) picked[name] = all[name];
  return picked;
}
