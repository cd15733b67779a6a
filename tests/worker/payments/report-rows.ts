// A revenue report as the upload leaves it (issue 45 §1): the file's object in R2 and its report row
// 'reading', ready for the Workflow's range steps (readReportRange), which the tests run themselves.
import { env } from "cloudflare:workers";
import type { TestUser } from "../../factories/users";

/** A report row for `csv`, put in R2 as one part; returns the report's id. */
export async function reportOf(admin: TestUser, month: string, csv: string): Promise<string> {
  const id = crypto.randomUUID();
  const key = `imports/${id}.csv`;
  await env.MEDIA.put(key, csv);
  const size = new TextEncoder().encode(csv).length;
  await env.DB.prepare(
    "INSERT INTO revenue_reports (id, month, file_name, object_key, size_bytes, part_bytes, part_count, status, created_by) VALUES (?, ?, 'report.csv', ?, ?, ?, 1, 'reading', ?)",
  )
    .bind(id, month, key, size, size, admin.id)
    .run();
  return id;
}
