import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import { describe, expect, it } from "vitest";
import { columnsOf } from "~/db/columns";
import { chatMessages, chatRooms, payouts } from "~/db/schema";

// columnsOf (app/db/columns.ts) stands for a select's `{ name: table.name, … }`: the same column
// objects under the same names, in the order named, so the statement and its rows do not change.

const offline = drizzle(async () => ({ rows: [] }));

describe("columnsOf", () => {
  it("picks the table's own column objects under their names, in the order named", () => {
    const picked = columnsOf(payouts, "status", "id", "amountCents");
    expect(Object.keys(picked)).toEqual(["status", "id", "amountCents"]);
    expect(picked.status).toBe(payouts.status);
    expect(picked.id).toBe(payouts.id);
    expect(picked.amountCents).toBe(payouts.amountCents);
  });

  it("builds the same SQL as the columns written out, beside a renamed column and a join", () => {
    const written = offline
      .select({ room: chatRooms.name, body: chatMessages.body, createdAt: chatMessages.createdAt, editedAt: chatMessages.editedAt })
      .from(chatMessages)
      .innerJoin(chatRooms, eq(chatRooms.id, chatMessages.roomId))
      .where(eq(chatMessages.userId, "u1"))
      .toSQL();
    const picked = offline
      .select({ room: chatRooms.name, ...columnsOf(chatMessages, "body", "createdAt", "editedAt") })
      .from(chatMessages)
      .innerJoin(chatRooms, eq(chatRooms.id, chatMessages.roomId))
      .where(eq(chatMessages.userId, "u1"))
      .toSQL();
    expect(picked).toEqual(written);
  });
});
