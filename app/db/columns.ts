import { getTableColumns, type Table } from "drizzle-orm";

/**
 * Some of a table's columns under their own names, for a select: `columnsOf(payouts, "id", "status")`
 * is `{ id: payouts.id, status: payouts.status }`, in the order named. A column read under another
 * name (`room: chatRooms.name`) is written out beside it.
 */
/** A table's columns by name, as drizzle's public getTableColumns types them. */
type ColumnsOf<T extends Table> = ReturnType<typeof getTableColumns<T>>;

export function columnsOf<T extends Table, K extends keyof ColumnsOf<T> & string>(table: T, ...names: K[]): Pick<ColumnsOf<T>, K> {
  const all = getTableColumns(table);
  const picked = {} as Pick<ColumnsOf<T>, K>;
  for (const name of names) picked[name] = all[name];
  return picked;
}
